/**
 * Container probing of uploaded videos (issue 19, finding 13): twelve magic bytes say nothing about
 * the rest of a file (an MP4 `ftyp` box followed by HTML was stored and served as `video/mp4`). A video
 * is accepted only when
 * 1. `file-type` (which reads the signature and the ISO brand / EBML DocType) names the same container
 *    family as the sniffed type: MP4 (`video/mp4`, `video/x-m4v`), QuickTime (`video/quicktime`) or WebM
 *    (`video/webm`); and
 * 2. its structure holds over the whole file:
 *    - ISO-BMFF (MP4, MOV): top-level boxes `[size][type]` tile the file exactly (size 0 = "to the end" only
 *      for the last box, size 1 = 64-bit size), every type is four printable characters, the first box is
 *      `ftyp` and a `moov` box holding an `mvhd` box is present;
 *    - WebM: an EBML header whose DocType is `webm`, then one Segment that ends where the file ends, whose
 *      level-1 children are Matroska level-1 elements (SeekHead, Info, Tracks, Cluster, Cues, ...) tiling it,
 *      with Info and Tracks before the first Cluster; a Segment or Cluster of unknown size (MediaRecorder
 *      output) runs to the end of the file, and an open Cluster's children must be Cluster children;
 * 3. when `ffprobe` is on the PATH, it also reads the file and names the same format.
 *
 * Nothing is decoded (no video decoder is bundled); the walk reads a few bytes per box (~µs per file).
 */
import { spawnSync } from "node:child_process";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { fileTypeFromBuffer, fileTypeFromFile } from "file-type";
import { badRequest } from "../contract/errors.ts";
import type { SniffedType, UploadedFile } from "./uploaded-file.ts";

/** Random access to an upload's bytes (a Buffer in memory or a temp file). */
type ByteSource = { size: number; read(offset: number, length: number): Buffer; close(): void };

function sourceOf(file: UploadedFile): ByteSource {
  if (file.data) {
    const data = file.data;
    return { size: data.length, read: (o, n) => data.subarray(o, Math.min(o + n, data.length)), close() {} };
  }
  const fd = openSync(file.tempPath!, "r");
  const size = fstatSync(fd).size;
  return {
    size,
    read(offset, length) {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      if (buf.length) readSync(fd, buf, 0, buf.length, offset);
      return buf;
    },
    close: () => closeSync(fd),
  };
}

/** The MIME types `file-type` may give for each sniffed video type. */
const FILE_TYPE_MIMES: Record<string, string[]> = {
  mp4: ["video/mp4", "video/x-m4v"],
  quicktime: ["video/quicktime"],
  webm: ["video/webm"],
};

const PRINTABLE_TYPE = /^[\x20-\x7e\xa9]{4}$/;

/**
 * Walk the top-level boxes of an ISO-BMFF file. @returns null when the structure holds, else why not.
 */
export function isoBmffProblem(src: { size: number; read(offset: number, length: number): Buffer }): string | null {
  let offset = 0;
  let first = true;
  let moov: { start: number; end: number } | null = null;
  let boxes = 0;
  while (offset < src.size) {
    if (++boxes > 100_000) return "too many boxes";
    const head = src.read(offset, 16);
    if (head.length < 8) return `a truncated box header at byte ${offset}`;
    let size = head.readUInt32BE(0);
    const type = head.toString("latin1", 4, 8);
    let headerBytes = 8;
    if (!PRINTABLE_TYPE.test(type)) return `bytes that are no box at byte ${offset}`;
    if (size === 1) {
      if (head.length < 16) return `a truncated box header at byte ${offset}`;
      const big = head.readBigUInt64BE(8);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) return `a box larger than the file at byte ${offset}`;
      size = Number(big);
      headerBytes = 16;
    } else if (size === 0) {
      size = src.size - offset; // "extends to the end of the file"
    }
    if (size < headerBytes) return `a box of impossible size ${size} at byte ${offset}`;
    if (offset + size > src.size) return `a "${type}" box of ${size} bytes at byte ${offset} that runs past the end of the file`;
    if (first && type !== "ftyp") return "no ftyp box first";
    first = false;
    if (type === "moov" && !moov) moov = { start: offset + headerBytes, end: offset + size };
    offset += size;
  }
  if (!moov) return "no moov box (no movie header)";
  if (!hasChild(src, moov, "mvhd")) return "a moov box without mvhd";
  return null;
}

function hasChild(src: { read(offset: number, length: number): Buffer }, box: { start: number; end: number }, want: string): boolean {
  let offset = box.start;
  for (let i = 0; i < 1000 && offset + 8 <= box.end; i++) {
    const head = src.read(offset, 8);
    const size = head.readUInt32BE(0);
    if (head.toString("latin1", 4, 8) === want) return true;
    if (size < 8) return false;
    offset += size;
  }
  return false;
}

/** An EBML variable-length integer at `offset`: its value (null for "unknown size") and length in bytes. */
function readVint(buf: Buffer, offset: number, keepMarker: boolean): { value: number | null; length: number } | undefined {
  if (offset >= buf.length) return undefined;
  const first = buf[offset];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || offset + length > buf.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + buf[offset + i];
    if (buf[offset + i] !== 0xff) allOnes = false;
  }
  return { value: !keepMarker && allOnes ? null : value, length };
}

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const DOC_TYPE = 0x4282;
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const CLUSTER = 0x1f43b675;
/** Matroska level-1 elements (and Void, CRC-32) that may sit in a Segment. */
const LEVEL1 = new Set([0x114d9b74, INFO, TRACKS, CLUSTER, 0x1c53bb6b, 0x1043a770, 0x1254c367, 0x1941a469, 0xec, 0xbf]);

/** Children of a Cluster (Timecode, SimpleBlock, BlockGroup, PrevSize, Position, SilentTracks, Void, CRC-32). */
const CLUSTER_CHILDREN = new Set([0xe7, 0xa3, 0xa0, 0xab, 0xa7, 0x5854, 0xec, 0xbf]);

/** Walk the EBML header and the Segment's level-1 elements of a WebM file. @returns null when it holds, else why not. */
export function webmProblem(src: { size: number; read(offset: number, length: number): Buffer }): string | null {
  const element = (offset: number) => {
    const head = src.read(offset, 12);
    const id = readVint(head, 0, true);
    const size = id && readVint(head, id.length, false);
    return id && size ? { id: id.value!, size: size.value, dataStart: offset + id.length + size.length } : undefined;
  };
  const header = element(0);
  if (!header || header.id !== EBML_HEADER || header.size === null) return "no EBML header";
  const headerEnd = header.dataStart + header.size;
  if (headerEnd > src.size || header.size > 4096) return "an EBML header that runs past the end of the file";
  const body = src.read(header.dataStart, header.size);
  let docType: string | null = null;
  for (let o = 0; o < body.length;) {
    const id = readVint(body, o, true);
    const size = id && readVint(body, o + id.length, false);
    if (!id || !size || size.value === null) return "a malformed EBML header";
    const start = o + id.length + size.length;
    if (start + size.value > body.length) return "a malformed EBML header";
    if (id.value === DOC_TYPE) docType = body.toString("latin1", start, start + size.value).replace(/\0+$/, "");
    o = start + size.value;
  }
  if (docType !== "webm") return `DocType ${JSON.stringify(docType)}, not "webm"`;
  const segment = element(headerEnd);
  if (!segment || segment.id !== SEGMENT) return "no Segment after the EBML header";
  const segmentEnd = segment.size === null ? src.size : segment.dataStart + segment.size;
  if (segmentEnd > src.size) return "a Segment that runs past the end of the file";
  if (segment.size !== null && segmentEnd !== src.size) return "bytes after the end of the Segment";
  let offset = segment.dataStart;
  let info = false;
  let tracks = false;
  let inOpenCluster = false; // inside a Cluster of unknown size: its children follow until the next level-1 element
  for (let n = 0; offset < segmentEnd; n++) {
    if (n > 5_000_000) return "too many elements";
    const e = element(offset);
    if (e && LEVEL1.has(e.id)) {
      if (e.id === INFO) info = true;
      if (e.id === TRACKS) tracks = true;
      if (e.id === CLUSTER && !(info && tracks)) return "a Cluster before the Info and Tracks elements";
      if (e.size === null) {
        if (e.id !== CLUSTER) return `an element of unknown size at byte ${offset}`;
        inOpenCluster = true;
        offset = e.dataStart;
        continue;
      }
      inOpenCluster = false;
    } else if (!(e && inOpenCluster && CLUSTER_CHILDREN.has(e.id) && e.size !== null)) {
      return `bytes that are no WebM element at byte ${offset}`;
    }
    if (e.dataStart + e.size! > segmentEnd) return `an element at byte ${offset} that runs past the end of the Segment`;
    offset = e.dataStart + e.size!;
  }
  if (!info || !tracks) return "no Info and Tracks elements";
  return null;
}

let ffprobeAvailable: boolean | undefined;
/** ffprobe's format names for the file, or undefined when ffprobe is not installed. @returns null when ffprobe cannot read it. */
function ffprobeFormat(path: string): string[] | null | undefined {
  ffprobeAvailable ??= spawnSync("ffprobe", ["-version"], { stdio: "ignore", timeout: 5000 }).status === 0;
  if (!ffprobeAvailable) return undefined;
  const run = spawnSync("ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "default=nw=1:nk=1", path], { encoding: "utf8", timeout: 20_000 });
  if (run.status !== 0 || run.stderr.trim() !== "") return null;
  return run.stdout.trim().split(",");
}

const FFPROBE_FORMATS: Record<string, string> = { mp4: "mp4", quicktime: "mov", webm: "webm" };
const LABEL: Record<string, string> = { mp4: "MP4", quicktime: "QuickTime (MOV)", webm: "WebM" };

/**
 * Check that a video upload really is the container its first bytes claim (see the module comment).
 * @throws ApiError 400 `media_type` naming the file and what is wrong.
 */
export async function probeVideo(file: UploadedFile, index: number): Promise<void> {
  const sniffed = file.sniffed as SniffedType;
  const name = `media[${index}] (${file.filename || "unnamed"})`;
  const label = LABEL[sniffed] ?? sniffed;
  const fail = (why: string) => badRequest(`${name} is not a valid ${label} video: ${why}`, "media_type");
  const detected = file.data ? await fileTypeFromBuffer(file.data) : await fileTypeFromFile(file.tempPath!);
  if (!detected || !(FILE_TYPE_MIMES[sniffed] ?? []).includes(detected.mime)) {
    throw fail(`its signature reads as ${detected ? detected.mime : "no known type"}`);
  }
  const src = sourceOf(file);
  let problem: string | null;
  try {
    problem = sniffed === "webm" ? webmProblem(src) : isoBmffProblem(src);
  } finally {
    src.close();
  }
  if (problem) throw fail(problem);
  if (file.tempPath) {
    const formats = ffprobeFormat(file.tempPath);
    if (formats === null) throw fail("ffprobe cannot read it");
    if (formats && !formats.includes(FFPROBE_FORMATS[sniffed])) throw fail(`ffprobe reads it as ${formats.join(", ")}`);
  }
}
