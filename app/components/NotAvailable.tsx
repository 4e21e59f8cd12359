/**
 * The page of an admin section whose server side has not landed yet: says what will be here, so the
 * navigation stays complete and nothing crashes.
 */
export function NotAvailable(props: { title: string; summary: string; features: string[] }) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{props.title}</h1>
      <div className="notice" role="status">
        <p><strong>Not available yet.</strong> This part of Chorus is still being built and will appear here in a coming version.</p>
      </div>
      <p>{props.summary}</p>
      <h2>What you will be able to do here</h2>
      <ul>
        {props.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
    </section>
  );
}
