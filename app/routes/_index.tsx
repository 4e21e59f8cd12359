import type { MetaFunction } from "@remix-run/node";

export const meta: MetaFunction = () => [{ title: "Chorus" }];

/** Home: where to go next (demo storefront, admin). */
export default function Index() {
  return (
    <main>
      <h1>Chorus</h1>
      <p>Open, self-hostable customer feedback for online shops: reviews, questions and answers, AI summaries, surveys and loyalty.</p>
      <ul>
        <li>
          <a href="/demo">Demo storefront</a> (real customer reviews)
        </li>
        <li>
          <a href="/admin">Merchant admin</a>
        </li>
      </ul>
    </main>
  );
}
