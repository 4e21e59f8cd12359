/**
 * Import of McAuley's Amazon question/answer file (`amazon_qa_appliances.json`, in the folder
 * `DEMO_DATA_DIR`): one record per line in "loose JSON". A line is parsed as JSON, else
 * as a Python literal by a small safe parser (dicts, lists, strings with escapes, numbers,
 * True/False/None: no eval), else skipped and reported with its line number.
 *
 * Each record becomes a published question (asker "Amazon shopper") with one published answer
 * (author "Amazon customer", not a store answer) on product `asin` of the store, created when
 * missing in the review group `groupId`. Idempotent: (source, line number) keys.
 */
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { transaction, type Db } from "../db/database.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";
import type { QuestionsRepo } from "./questions.repo.ts";

export type AmazonQaRecord = { asin: string; question: string; answer: string; questionType?: string; answerType?: string; answerTime?: string; unixTime?: number };
export type AmazonQaReport = { linesRead: number; records: number; questionsInserted: number; alreadyPresent: number; products: number; badLines: { line: number; reason: string }[]; ms: number };

/**
 * Parse one Python literal (the subset McAuley's files use). @throws SyntaxError with the offset.
 */
export function parsePythonLiteral(text: string): unknown {
  let i = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const ESC: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "\n": "", a: "\x07", b: "\b", f: "\f", v: "\v", "0": "\0" };
  function str(): string {
    const q = text[i++];
    let out = "";
    while (i < text.length) {
      const c = text[i++];
      if (c === q) return out;
      if (c === "\n") fail("newline in string");
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = text[i++];
      if (e === "x") {
        out += String.fromCharCode(parseInt(text.slice(i, i + 2), 16));
        i += 2;
      } else if (e === "u") {
        out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16));
        i += 4;
      } else if (e !== undefined && e in ESC) out += ESC[e];
      else out += `\\${e ?? ""}`;
    }
    return fail("unterminated string");
  }
  function value(): unknown {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        const k = value();
        if (typeof k !== "string" && typeof k !== "number") fail("bad key");
        ws();
        if (text[i++] !== ":") fail("expected :");
        obj[String(k)] = value();
        ws();
        const d = text[i++];
        if (d === "}") return obj;
        if (d !== ",") fail("expected , or }");
        ws();
        if (text[i] === "}") {
          i++;
          return obj;
        }
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        const d = text[i++];
        if (d === "]") return arr;
        if (d !== ",") fail("expected , or ]");
      }
    }
    if (c === "'" || c === '"') return str();
    const word = /^(True|False|None|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 40));
    if (!word) return fail("unexpected character");
    i += word[0].length;
    return word[0] === "True" ? true : word[0] === "False" ? false : word[0] === "None" ? null : Number(word[0]);
  }
  const v = value();
  ws();
  if (i !== text.length) fail("trailing characters");
  return v;
}

/** One line of the file as a record, or a reason why not. */
export function parseAmazonQaLine(line: string): AmazonQaRecord | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    try {
      v = parsePythonLiteral(line);
    } catch (e) {
      return { error: `neither JSON nor a Python literal (${(e as Error).message})` };
    }
  }
  const r = v as Partial<AmazonQaRecord> | null;
  if (!r || typeof r !== "object" || typeof r.asin !== "string" || !r.asin || typeof r.question !== "string" || !r.question.trim() || typeof r.answer !== "string") {
    return { error: "missing asin, question or answer" };
  }
  return r as AmazonQaRecord;
}

const DAY_MS = 86_400_000;

/** Import the file into `storeId`. @throws only when the file cannot be read or the store is missing. */
export async function importAmazonQa(
  deps: { db: Db; stores: StoresRepo; questions: QuestionsRepo },
  options: { storeId: string; file: string; groupId?: string; groupName?: string; source?: string },
): Promise<AmazonQaReport> {
  const started = performance.now();
  if (!(await deps.stores.get(options.storeId))) throw new Error(`No store ${options.storeId}`);
  const source = options.source ?? basename(options.file);
  const groupId = options.groupId ?? "appliances";
  await deps.stores.upsertGroup({ storeId: options.storeId, groupId, name: options.groupName ?? "Appliances" });
  const report: AmazonQaReport = { linesRead: 0, records: 0, questionsInserted: 0, alreadyPresent: 0, products: 0, badLines: [], ms: 0 };
  const products = new Set<string>();
  const batch: { line: number; r: AmazonQaRecord }[] = [];
  const flush = async () => {
    await transaction(deps.db, async () => {
      for (const { line, r } of batch) {
        if (!products.has(r.asin)) {
          products.add(r.asin);
          if (!(await deps.stores.getProduct(options.storeId, r.asin))) await deps.stores.upsertProduct({ storeId: options.storeId, productId: r.asin, name: `Appliance ${r.asin}`, groupId });
        }
        const answeredMs = typeof r.unixTime === "number" ? r.unixTime * 1000 : Date.parse(r.answerTime ?? "") || Date.UTC(2015, 0, 1) - line * 60_000;
        const questionId = crypto.randomUUID();
        const inserted = await deps.questions.insertQuestion({
          questionId,
          storeId: options.storeId,
          productId: r.asin,
          body: r.question.trim(),
          askerName: "Amazon shopper",
          status: "published",
          createdMs: answeredMs - DAY_MS,
          source,
          sourceKey: `line:${line}`,
        });
        if (!inserted) {
          report.alreadyPresent++;
          continue;
        }
        report.questionsInserted++;
        if (r.answer.trim()) {
          await deps.questions.insertAnswer({
            answerId: crypto.randomUUID(),
            storeId: options.storeId,
            questionId,
            body: r.answer.trim(),
            authorName: "Amazon customer",
            isStoreAnswer: false,
            verifiedStatus: "unverified",
            status: "published",
            createdMs: answeredMs,
            source,
            sourceKey: `line:${line}`,
          });
        }
      }
    });
    batch.length = 0;
  };
  const rl = createInterface({ input: createReadStream(options.file, "utf8"), crlfDelay: Infinity });
  for await (const text of rl) {
    report.linesRead++;
    if (!text.trim()) continue;
    const parsed = parseAmazonQaLine(text);
    if ("error" in parsed) {
      report.badLines.push({ line: report.linesRead, reason: parsed.error });
      continue;
    }
    report.records++;
    batch.push({ line: report.linesRead, r: parsed });
    if (batch.length >= 1000) await flush();
  }
  await flush();
  report.products = products.size;
  report.ms = Math.round(performance.now() - started);
  return report;
}
