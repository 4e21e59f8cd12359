/**
 * The rounding rule for a displayed average rating, defined once in the server contract
 * (server/contract/rating.ts, pure and dependency-free) and shared with the widgets from here.
 */
export { roundRating, formatRating } from "../../server/contract/rating.ts";
