/**
 * The mail template (render.ts) and the mail settings (config.ts): every text is escaped in the HTML and kept
 * as is in the text; only absolute http(s) action URLs; SMTP_URL and MAIL_FROM validated at start.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { parseMailFrom } from "./address.ts";
import { renderMail } from "./render.ts";

describe("renderMail", () => {
  const hostile = `<img src=x onerror=alert(1)> "quoted" & 'single'`;
  const { html, text } = renderMail({
    storeName: hostile,
    preheader: hostile,
    heading: hostile,
    paragraphs: [hostile, "line one\nline two"],
    action: { label: hostile, url: 'https://shop.example/r/1?a=1&b="2"' },
    footer: hostile,
  });

  it("escapes every text in the HTML", () => {
    expect(html).not.toContain("<img");
    expect(html).not.toMatch(/onerror=alert\(1\)>/);
    expect(html.match(/&lt;img src=x onerror=alert\(1\)&gt; &quot;quoted&quot; &amp; &#39;single&#39;/g)?.length).toBeGreaterThanOrEqual(6);
    expect(html).toContain('href="https://shop.example/r/1?a=1&amp;b=%222%22"');
    expect(html).toContain("line one<br>line two");
  });

  it("is a complete accessible document: language, title, one h1, layout tables marked as presentation", () => {
    expect(html).toMatch(/^<!DOCTYPE html>\n<html lang="en">/);
    expect(html).toContain("<title>&lt;img");
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html.match(/<table/g)?.length).toBe(html.match(/<table role="presentation"/g)?.length);
    expect(html).not.toMatch(/<script|<style|<link/i); // inline styles only: mail clients drop the rest
  });

  it("gives the same content as plain text, unescaped, with the link written out", () => {
    expect(text.split("\n")[0]).toBe(hostile);
    expect(text).toContain(`${hostile}: https://shop.example/r/1?a=1&b=%222%22`);
    expect(text).toContain("line one\nline two");
    expect(text).toContain(`Sent for ${hostile}.`);
    expect(text).not.toContain("&amp;");
  });

  it("refuses an action URL that is not absolute http(s)", () => {
    for (const url of ["javascript:alert(1)", "/relative", "data:text/html,x", "mailto:a@example.com"]) {
      expect(() => renderMail({ storeName: "S", heading: "H", paragraphs: [], action: { label: "Go", url } }), url).toThrow(TypeError);
    }
  });

  it("leaves out what is not given", () => {
    const minimal = renderMail({ storeName: "Shop", heading: "Hello", paragraphs: ["Hi"] });
    expect(minimal.html).not.toContain("<a ");
    expect(minimal.html).not.toContain("display:none");
    expect(minimal.text).toBe("Shop\n\nHello\n=====\n\nHi\n\n--\nSent for Shop.\n");
  });
});

/** An environment with only these variables. */
const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe("SMTP_URL and MAIL_FROM", () => {
  it("accept smtp(s) URLs and one address; an empty SMTP_URL is unset", () => {
    expect(loadConfig(env({})).SMTP_URL).toBeUndefined();
    expect(loadConfig(env({ SMTP_URL: "" })).SMTP_URL).toBeUndefined();
    expect(loadConfig(env({ SMTP_URL: "smtp://u:p%40ss@mail.example.com:587" })).SMTP_URL).toBe("smtp://u:p%40ss@mail.example.com:587");
    expect(loadConfig(env({ SMTP_URL: "smtps://mail.example.com:465" })).SMTP_URL).toBe("smtps://mail.example.com:465");
    expect(loadConfig(env({})).MAIL_FROM).toBe("Chorus <no-reply@localhost>");
    expect(loadConfig(env({ MAIL_FROM: "Maple & Thread <reviews@maple.example>" })).MAIL_FROM).toBe("Maple & Thread <reviews@maple.example>");
  });

  it("stop the start with a clear message for bad values", () => {
    expect(() => loadConfig(env({ SMTP_URL: "http://mail.example.com" }))).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(() => loadConfig(env({ SMTP_URL: "not a url" }))).toThrow(/SMTP_URL/);
    for (const from of ["nobody", "a@example.com, b@example.com", "Name <>", "x\r\nBcc: y@example.com <a@example.com>"]) {
      expect(() => loadConfig(env({ MAIL_FROM: from })), from).toThrow(/MAIL_FROM must be one address/);
    }
  });

  it("parseMailFrom gives the domain of the Message-ID", () => {
    expect(parseMailFrom('"Shop, Inc." <mail@Shop.Example>')).toEqual({ name: "Shop, Inc.", address: "mail@Shop.Example", domain: "shop.example" });
    expect(parseMailFrom("no-reply@localhost")?.domain).toBe("localhost");
  });
});
