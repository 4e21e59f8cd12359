/**
 * The per-response CSP nonce (set by app/entry.server.tsx) for Remix's inline scripts. On the client
 * the context is empty; browsers hide nonce attribute values anyway.
 */
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);
/** The nonce of the response being rendered (server) or undefined (client). */
export const useNonce = () => useContext(NonceContext);
