/**
 * Video containers for upload tests, built box by box (no encoder is installed): structurally valid
 * files that `file-type` and server/media/media-probe.ts accept, and the forgeries they must refuse.
 */

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
/** An ISO-BMFF box: 32-bit size, four-character type, payload. */
export const isoBox = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, "latin1"), body]);
};

/** An MP4 (ISO-BMFF) file: `ftyp` (isom), `moov` with a version-0 `mvhd` (1 s at timescale 1000), `mdat` of `mdatBytes`. */
export function minimalMp4(mdatBytes = 2000): Buffer {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(1000, 16); // duration
  mvhd.writeUInt32BE(0x00010000, 20); // rate 1.0
  mvhd.writeUInt16BE(0x0100, 24); // volume 1.0
  mvhd.writeUInt32BE(2, 96); // next track ID
  return Buffer.concat([isoBox("ftyp", Buffer.from("isom"), u32(0x200), Buffer.from("isomiso2mp41")), isoBox("moov", isoBox("mvhd", mvhd)), isoBox("mdat", Buffer.alloc(mdatBytes, 7))]);
}

/** The forgery of issue 19: an MP4 `ftyp` box (valid signature) followed by an HTML page. */
export const mp4HeaderThenHtml = () =>
  Buffer.concat([isoBox("ftyp", Buffer.from("isom"), u32(0x200), Buffer.from("isommp42")), Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>")]);

/** An EBML element with an 8-byte size. */
const ebml = (id: number[], ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(body.length));
  size[0] = 0x01;
  return Buffer.concat([Buffer.from(id), size, body]);
};
const uint = (n: number) => Buffer.from([n]);

/** A WebM file: EBML header (DocType webm), Segment with Info, Tracks (one VP8 track) and a Cluster. */
export function minimalWebm(clusterBytes = 1000): Buffer {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    ebml([0x42, 0x86], uint(1)),
    ebml([0x42, 0xf7], uint(1)),
    ebml([0x42, 0xf2], uint(4)),
    ebml([0x42, 0xf3], uint(8)),
    ebml([0x42, 0x82], Buffer.from("webm")),
    ebml([0x42, 0x87], uint(4)),
    ebml([0x42, 0x85], uint(2)),
  );
  const info = ebml([0x15, 0x49, 0xa9, 0x66], ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40])));
  const tracks = ebml([0x16, 0x54, 0xae, 0x6b], ebml([0xae], ebml([0xd7], uint(1)), ebml([0x83], uint(1)), ebml([0x86], Buffer.from("V_VP8"))));
  const cluster = ebml([0x1f, 0x43, 0xb6, 0x75], ebml([0xe7], uint(0)), ebml([0xa3], Buffer.alloc(clusterBytes, 1)));
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], info, tracks, cluster)]);
}
