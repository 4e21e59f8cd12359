/**
 * Every word the widgets show shoppers, in English: the defaults a merchant's texts (per language, set in
 * the admin, `widget_texts`) replace, keyed by stable IDs `<widget>.<name>`. One table, split in one group
 * per widget so that each widget's module carries only its own words (widgets/internal/strings.ts).
 *
 * `{name}` marks a value the widget fills in (a count, a name, a date); a merchant's text may use the
 * same placeholders as the default and no others (server/widget-settings/widget-settings.service.ts).
 * Pairs ending `.one` / `.other` are the singular and plural forms of one phrase ("1 review", "2 reviews").
 *
 * Pure data, no imports: the server (validation, admin page) and the widgets (rendering) share it.
 */

/** Words of more than one widget: request errors and the e-mail field of both forms. */
export const COMMON_TEXTS = {
  "common.networkError": "Could not reach the reviews service. Check your connection and try again.",
  "common.cancelled": "The request was cancelled.",
  "common.emailMissing": "Enter your e-mail address.",
  "common.emailInvalid": "Enter a valid e-mail address, like name@example.com.",
} as const;

/** `<chorus-star-rating>`. */
export const STAR_RATING_TEXTS = {
  "starRating.label": "Rated {average} out of 5, {count}",
  "starRating.count.one": "{count} review",
  "starRating.count.other": "{count} reviews",
  "starRating.empty": "No reviews yet",
} as const;

/** `<chorus-reviews>`. */
export const REVIEWS_TEXTS = {
  "reviews.region": "Reviews",
  "reviews.sortLabel": "Sort reviews by",
  "reviews.order.dateDesc": "Newest",
  "reviews.order.dateAsc": "Oldest",
  "reviews.order.ratingDesc": "Highest rating",
  "reviews.order.ratingAsc": "Lowest rating",
  "reviews.order.helpfulDesc": "Most helpful",
  "reviews.order.helpfulAsc": "Least helpful",
  "reviews.order.hasMediaDesc": "With photos first",
  "reviews.writeReview": "Write a review",
  "reviews.rated": "Rated {rating} out of 5",
  "reviews.reviewBy": "Review by {name}",
  "reviews.verifiedBuyer": "Verified buyer",
  "reviews.verifiedReviewer": "Verified reviewer",
  "reviews.recommends": "✓ Recommends this product",
  "reviews.mediaList": "Photos and videos from this review",
  "reviews.photoAlt": "Photo {index} from {name}'s review",
  "reviews.videoAlt": "Video {index} from {name}'s review",
  "reviews.opensFullSize": "{alt} (opens full size)",
  "reviews.reply": "Reply from the store",
  "reviews.helpfulCount.one": "{count} person found this helpful",
  "reviews.helpfulCount.other": "{count} people found this helpful",
  "reviews.voteHelpful": "Helpful",
  "reviews.voteUnhelpful": "Not helpful ({count})",
  "reviews.voteThanks": "Thanks for your vote",
  "reviews.voteCounted": "Thank you, your vote was counted.",
  "reviews.voteFailed": "Your vote could not be saved: {error}",
  "reviews.loadFailed": "Reviews could not be loaded. {error}",
  "reviews.retry": "Retry",
  "reviews.empty": "No reviews yet",
  "reviews.emptyKeyword": "No reviews mention “{keyword}”.",
  "reviews.loadMore": "Load more reviews",
  "reviews.loadingMore": "Loading more reviews…",
  "reviews.moreLoaded.one": "{count} more review loaded",
  "reviews.moreLoaded.other": "{count} more reviews loaded",
  "reviews.missingStore": "This reviews widget is missing its store-id attribute.",
} as const;

/** `<chorus-review-form>` (also opened by "Write a review" in `<chorus-reviews>`). */
export const REVIEW_FORM_TEXTS = {
  "reviewForm.label": "Write a review",
  "reviewForm.rating": "Your rating (required)",
  "reviewForm.stars.one": "{count} star",
  "reviewForm.stars.other": "{count} stars",
  "reviewForm.title": "Title",
  "reviewForm.body": "Your review (required)",
  "reviewForm.name": "Name shown with your review (required)",
  "reviewForm.email": "E-mail (required, never shown)",
  "reviewForm.recommend": "I recommend this product",
  "reviewForm.media": "Add photos or a video",
  "reviewForm.mediaHint": "Up to 5 photos (10 MB each) and 1 video (100 MB).",
  "reviewForm.selected": "Selected photos and video",
  "reviewForm.preview": "Preview of {file}",
  "reviewForm.remove": "Remove",
  "reviewForm.removeLabel": "Remove {file}",
  "reviewForm.submit": "Submit review",
  "reviewForm.submitting": "Submitting…",
  "reviewForm.thanks": "Thank you!",
  "reviewForm.published": "Your review has been published.",
  "reviewForm.pending": "Your review has been submitted and awaits moderation. It will appear once the store has approved it.",
  "reviewForm.ratingMissing": "Choose a rating from 1 to 5 stars.",
  "reviewForm.titleTooLong": "The title may be at most {max} characters.",
  "reviewForm.bodyMissing": "Write your review.",
  "reviewForm.bodyTooLong": "The review may be at most {max} characters.",
  "reviewForm.nameMissing": "Enter the name to show with your review.",
  "reviewForm.nameTooLong": "The name may be at most {max} characters.",
  "reviewForm.notMedia": "{file} is not an image or a video.",
  "reviewForm.emptyFile": "{file} is empty.",
  "reviewForm.imageTooLarge": "{file} is too large: images may be at most 10 MB.",
  "reviewForm.videoTooLarge": "{file} is too large: videos may be at most 100 MB.",
  "reviewForm.tooManyPhotos": "You can add at most {max} photos.",
  "reviewForm.tooManyVideos": "You can add at most 1 video.",
} as const;

/** `<chorus-review-media>`. */
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

/** `<chorus-questions>`. */
export const QUESTIONS_TEXTS = {
  "questions.ask": "Ask a question",
  "questions.body": "Your question (required)",
  "questions.name": "Name shown with your question (required)",
  "questions.email": "E-mail (required, never shown)",
  "questions.submit": "Submit question",
  "questions.sending": "Sending…",
  "questions.cancel": "Cancel",
  "questions.thanks": "Thank you! Your question has been submitted and awaits moderation. It will appear here once it has been answered and approved.",
  "questions.loading": "Loading questions",
  "questions.list": "Questions and answers",
  "questions.empty": "No questions yet. Be the first to ask.",
  "questions.more": "More questions",
  "questions.loadingMore": "Loading…",
  "questions.retry": "Try again",
  "questions.question": "Q: {body}",
  "questions.answer": "A: {body}",
  "questions.askedBy": "Asked by {name} on {date}",
  "questions.answers": "Answers",
  "questions.storeAnswer": "Store answer",
  "questions.noAnswer": "No answer yet.",
  "questions.bodyTooShort": "Write your question (at least 5 characters).",
  "questions.bodyTooLong": "The question may be at most 1000 characters.",
  "questions.nameMissing": "Enter the name to show with your question.",
} as const;

/** `<chorus-reviews-summary>`. */
export const SUMMARY_TEXTS = {
  "summary.empty": "No AI summary of the reviews yet.",
  "summary.label": "AI-generated",
  "summary.title": "What shoppers say",
  "summary.readMore": "Read more",
  "summary.showLess": "Show less",
  "summary.basedOn.one": "Based on {count} review",
  "summary.basedOn.other": "Based on {count} reviews",
  "summary.generatedOn": "generated on {date}",
} as const;

/** `<chorus-reviews-keywords>`. */
export const KEYWORDS_TEXTS = {
  "keywords.title": "What reviews mention",
  "keywords.empty": "No review topics yet.",
  "keywords.showAll": "Show all {count} topics",
  "keywords.showFewer": "Show fewer topics",
  "keywords.reviews": "reviews",
} as const;

/** `<chorus-loyalty>`. */
export const LOYALTY_TEXTS = {
  "loyalty.rewardsTitle": "Rewards",
  "loyalty.joinTitle": "Join our rewards program",
  "loyalty.yourRewards": "Your rewards",
  "loyalty.loading": "Loading the rewards program…",
  "loyalty.blocked": "We're sorry, your account can't take part in the rewards program at the moment. If you think this is a mistake, please contact the shop's customer service.",
  "loyalty.intro": "Earn points on orders and reviews, and redeem them for rewards.",
  "loyalty.signInPrompt": "{signIn} to join and see your points.",
  "loyalty.signIn": "Sign in or create an account",
  "loyalty.pendingIntro": "You have {points} so far. Join to earn more and redeem them for rewards.",
  "loyalty.balance": "Balance: {points}",
  "loyalty.tier": "VIP tier: {tier}",
  "loyalty.points.one": "{count} point",
  "loyalty.points.other": "{count} points",
  "loyalty.waysToEarn": "Ways to earn",
  "loyalty.waysToEarnLabel": "Ways to earn points",
  "loyalty.perSpend": "{points} per $1 spent",
  "loyalty.rewards": "Rewards",
  "loyalty.redeem": "Redeem",
  "loyalty.redeemLabel": "Redeem {reward} for {points}",
  "loyalty.vipTiers": "VIP tiers",
  "loyalty.tierLine": "from {points} · ×{multiplier} points",
  "loyalty.welcome": "Welcome to the program! You have {points}.",
  "loyalty.welcomeTier": "Welcome to the program! You have {points} and the {tier} tier.",
  "loyalty.coupon": "Your coupon code for {reward}: {code}",
  "loyalty.signInFailed": "We could not confirm your sign-in. Please sign in to the shop again.",
  "loyalty.termsUpdated": "The program terms have just been updated. Please read them again before joining.",
  "loyalty.retry": "Try again",
  "loyalty.terms": "Terms and Conditions",
  "loyalty.privacy": "Privacy Policy",
} as const;

/** Every default text by ID. */
export const DEFAULT_TEXTS = {
  ...COMMON_TEXTS, ...STAR_RATING_TEXTS, ...REVIEWS_TEXTS, ...REVIEW_FORM_TEXTS, ...MEDIA_TEXTS,
  ...QUESTIONS_TEXTS, ...SUMMARY_TEXTS, ...KEYWORDS_TEXTS, ...LOYALTY_TEXTS,
} as const;

/** A text ID (`reviews.writeReview`, ...). */
export type TextId = keyof typeof DEFAULT_TEXTS;
export const TEXT_IDS = Object.keys(DEFAULT_TEXTS) as TextId[];

/** The groups in the order the admin shows them, with the element each belongs to. */
export const TEXT_GROUPS: readonly { title: string; texts: Record<string, string> }[] = [
  { title: "Star rating badge (<chorus-star-rating>)", texts: STAR_RATING_TEXTS },
  { title: "Reviews (<chorus-reviews>)", texts: REVIEWS_TEXTS },
  { title: "Review form (<chorus-review-form>)", texts: REVIEW_FORM_TEXTS },
  { title: "Photos and videos (<chorus-review-media>)", texts: MEDIA_TEXTS },
  { title: "Questions (<chorus-questions>)", texts: QUESTIONS_TEXTS },
  { title: "AI summary (<chorus-reviews-summary>)", texts: SUMMARY_TEXTS },
  { title: "Review topics (<chorus-reviews-keywords>)", texts: KEYWORDS_TEXTS },
  { title: "Loyalty (<chorus-loyalty>)", texts: LOYALTY_TEXTS },
  { title: "Shared by several widgets", texts: COMMON_TEXTS },
];

/** The `{placeholders}` a text uses, e.g. `["count"]`. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
