/** English default texts of `<chorus-review-media>` (one group of server/contract/widget-strings.ts; pure data). */
export const MEDIA_TEXTS = {
  "media.loading": "Loading customer photos",
  "media.empty": "No customer photos or videos yet.",
  "media.grid": "Customer photos and videos",
  "media.open": "Open {alt}",
  "media.photoAlt": "Photo from {name}'s {rating}-star review",
  "media.videoAlt": "Video from {name}'s {rating}-star review",
  "media.videoBadge": "▶ Video",
  "media.loadMore": "Load more photos",
  "media.loadingMore": "Loading…",
  "media.retry": "Try again",
  "media.caption": "{index} of {total}: {name}, {rating} out of 5 stars, {date}",
  "media.previous": "‹ Previous",
  "media.previousLabel": "Previous photo",
  "media.next": "Next ›",
  "media.nextLabel": "Next photo",
  "media.close": "Close",
} as const;
