import { useEffect, useState } from "react";

/**
 * A "Copy" button for the text of the element with `targetId`. Progressive enhancement: it renders
 * only after hydration (without JavaScript the text itself stays visible and selectable).
 */
export function CopyButton({ targetId, label = "Copy" }: { targetId: string; label?: string }) {
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  async function copy() {
    const text = document.getElementById(targetId)?.textContent ?? "";
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copied to the clipboard.");
    } catch {
      setStatus("Copying failed: select the text and copy it by hand.");
    }
  }
  return (
    <span className="copy">
      <button type="button" className="secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="muted">
        {status}
      </span>
    </span>
  );
}
