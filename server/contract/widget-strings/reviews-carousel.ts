/** English default texts of `<chorus-reviews-carousel>` (one group of server/contract/widget-strings.ts; pure data). */
export const CAROUSEL_TEXTS = {
  "carousel.region": "Customer reviews",
  "carousel.slide": "{index} of {total}",
  "carousel.previous": "Previous review",
  "carousel.next": "Next review",
  "carousel.stop": "Stop automatic slide show",
  "carousel.start": "Start automatic slide show",
  "carousel.rated": "Rated {rating} out of 5",
  "carousel.verifiedBuyer": "Verified buyer",
  "carousel.verifiedReviewer": "Verified reviewer",
  "carousel.product": "Review of {product}",
} as const;
