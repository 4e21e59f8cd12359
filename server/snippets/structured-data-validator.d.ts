/** Types of the two untyped test libraries the structured-data tests use (only what they call). */
declare module "@adobe/structured-data-validator" {
  export default class Validator {
    constructor(schemaOrgJson: unknown);
    validate(extracted: unknown): Promise<{ severity: "ERROR" | "WARNING"; issueMessage: string; fieldNames?: string[] }[]>;
  }
}
declare module "@marbec/web-auto-extractor" {
  export default class WebAutoExtractor {
    constructor(options: { addLocation?: boolean; embedSource?: string[] });
    parse(html: string): unknown;
  }
}
