/** English default texts shared by several widgets: request errors and the e-mail field of both forms (one group of server/contract/widget-strings.ts; pure data). */
export const COMMON_TEXTS = {
  "common.networkError": "Could not reach the reviews service. Check your connection and try again.",
  "common.cancelled": "The request was cancelled.",
  "common.emailMissing": "Enter your e-mail address.",
  "common.emailInvalid": "Enter a valid e-mail address, like name@example.com.",
} as const;
