/** A star rating as text (★★★★☆) with its value for screen readers ("4 out of 5 stars"). */
export function Stars({ rating }: { rating: number }) {
  const r = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span className="stars" role="img" aria-label={`${r} out of 5 stars`}>
      {"★".repeat(r)}
      {"☆".repeat(5 - r)}
    </span>
  );
}
