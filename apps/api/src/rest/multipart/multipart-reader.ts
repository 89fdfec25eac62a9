import type { Readable } from 'node:stream';
import { DomainError } from '@trackline/domain';
import { boundaryOf, invalidMultipart, type PartHeaders, parsePartHeaders } from './part-headers.js';

/*
 * A streaming `multipart/form-data` reader (RFC 7578 / RFC 2046), pulled part by part: a part's
 * body is handed on in chunks as they arrive and never buffered whole, and the request is paused
 * while the consumer is busy (a file goes to the store at the store's pace). Linear in the body:
 * delimiters are found with Buffer.indexOf, and at most a delimiter's length is carried from one
 * chunk to the next.
 *
 * Line ends: CRLF as the RFC says, or bare LF when the first boundary line ends so (what Go's
 * reader accepts, and clients built by hand send). Transport padding (spaces, tabs) after a
 * boundary is skipped; a preamble and an epilogue are ignored; an empty body has no parts. A body
 * that ends before its closing boundary is refused. Headers: part-headers.ts.
 */

export type MultipartLimits = {
  /** Bytes of one part's header block. */
  maxHeaderBytes: number;
  /** Parts in the body (fields and files). */
  maxParts: number;
  /** Bytes of the whole body (413 beyond); Infinity when the consumer bounds each part itself. */
  maxBytes: number;
};

export type MultipartPart = PartHeaders & {
  /** The part's bytes; read it before asking for the next part (what is left is skipped). */
  body: AsyncIterable<Buffer>;
};

const tooLarge = (limit: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes.`);

/** Chunks of a request pulled one at a time, the request paused in between. */
class ChunkSource {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private abandoned = false;
  received = 0;

  constructor(
    private readonly stream: Readable,
    private readonly maxBytes: number,
  ) {
    stream.on('data', (chunk: Buffer) => {
      if (this.abandoned) return;
      this.received += chunk.length;
      this.queue.push(chunk);
      stream.pause();
      this.notify();
    });
    stream.once('end', () => {
      this.ended = true;
      this.notify();
    });
    stream.once('error', (error: Error) => {
      this.failure = error;
      this.notify();
    });
    stream.once('aborted', () => {
      this.failure = invalidMultipart('ended early: the upload was interrupted');
      this.notify();
    });
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** The next chunk, or null at the end of the body. */
  async next(): Promise<Buffer | null> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk) {
        if (this.received > this.maxBytes) throw tooLarge(this.maxBytes);
        return chunk;
      }
      if (this.failure)
        throw this.failure instanceof DomainError
          ? this.failure
          : invalidMultipart('ended early: the upload was interrupted');
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.stream.resume();
      });
    }
  }

  /** Stops reading: what is left of the body flows past unread. */
  abandon() {
    this.abandoned = true;
    this.queue.length = 0;
    this.stream.resume();
  }
}

/** Reads the parts of a multipart request (`req` not yet read; its Content-Type is multipart). */
export class MultipartReader {
  private readonly source: ChunkSource;
  private readonly boundary: Buffer;
  /** `\r\n--boundary` or `\n--boundary`, once the first boundary line has shown the line ends. */
  private delimiter: Buffer | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private parts = 0;
  private state: 'start' | 'headers' | 'body' | 'done' = 'start';

  constructor(
    stream: Readable,
    contentType: string,
    private readonly limits: MultipartLimits,
  ) {
    this.boundary = Buffer.from(`--${boundaryOf(contentType)}`, 'latin1');
    this.source = new ChunkSource(stream, limits.maxBytes);
  }

  /** Stops reading the body (after a refusal): the rest is drained, not parsed. */
  abandon() {
    this.state = 'done';
    this.source.abandon();
  }

  /** Bytes of the body received so far. */
  get received() {
    return this.source.received;
  }

  private async fill(): Promise<boolean> {
    const chunk = await this.source.next();
    if (!chunk) return false;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    return true;
  }

  /** The next part, or null after the closing boundary. The previous part's unread body is skipped. */
  async next(): Promise<MultipartPart | null> {
    if (this.state === 'body') {
      const rest = this.readBody();
      while (!(await rest.next()).done);
    }
    if (this.state === 'start' && !(await this.readFirstBoundary())) return null;
    if (this.state === 'done') return null;
    if (++this.parts > this.limits.maxParts)
      throw invalidMultipart(`holds more than ${this.limits.maxParts} parts`);
    const headers = parsePartHeaders(await this.readHeaderBlock());
    this.state = 'body';
    return { ...headers, body: this.readBody() };
  }

  /** Skips the preamble up to the first boundary line; false for an empty body. */
  private async readFirstBoundary(): Promise<boolean> {
    let from = 0;
    let trimmed = false;
    for (;;) {
      const at = this.buffer.indexOf(this.boundary, from);
      if (at >= 0) {
        // A boundary counts at the start of the body or of a line (else it is preamble text).
        if ((at === 0 && !trimmed) || (at > 0 && this.buffer[at - 1] === 0x0a)) {
          this.buffer = this.buffer.subarray(at + this.boundary.length);
          break;
        }
        from = at + 1;
        continue;
      }
      // Keep what could still begin a boundary, and the byte before it.
      if (this.buffer.length > this.boundary.length) {
        this.buffer = this.buffer.subarray(this.buffer.length - this.boundary.length);
        trimmed = true;
      }
      from = 0;
      if (!(await this.fill())) {
        if (this.source.received === 0) {
          this.state = 'done';
          return false;
        }
        throw invalidMultipart('is multipart/form-data without its boundary line');
      }
    }
    const lineEnd = await this.readBoundaryLineEnd();
    if (!lineEnd) return false;
    this.delimiter = Buffer.concat([Buffer.from(lineEnd, 'latin1'), this.boundary]);
    this.state = 'headers';
    return true;
  }

  /**
   * After a boundary: `--` closes the body, else transport padding and a line end (CRLF or LF,
   * returned) open a part.
   */
  private async readBoundaryLineEnd(): Promise<string> {
    for (;;) {
      let i = 0;
      while (i < this.buffer.length && (this.buffer[i] === 0x20 || this.buffer[i] === 0x09)) i++;
      const rest = this.buffer.subarray(i);
      if (rest.length >= 2 || (rest.length >= 1 && rest[0] === 0x0a)) {
        if (i === 0 && rest[0] === 0x2d && rest[1] === 0x2d) {
          this.state = 'done';
          this.source.abandon(); // the epilogue is not read
          return '';
        }
        if (rest[0] === 0x0a) {
          this.buffer = rest.subarray(1);
          return '\n';
        }
        if (rest[0] === 0x0d && rest[1] === 0x0a) {
          this.buffer = rest.subarray(2);
          return '\r\n';
        }
        throw invalidMultipart('has a boundary line with text after the boundary');
      }
      if (this.buffer.length > 256)
        throw invalidMultipart('has a boundary line with text after the boundary');
      if (!(await this.fill())) throw invalidMultipart('ends before its closing boundary');
    }
  }

  /** The header block up to the empty line (CRLF CRLF, LF LF or a mix), consumed with it. */
  private async readHeaderBlock(): Promise<Buffer> {
    let from = 0;
    for (;;) {
      const buffer = this.buffer;
      for (let i = from; i < buffer.length; i++) {
        // An empty line: a line start holding LF, or CR LF (an empty block starts so).
        if (i > 0 && buffer[i - 1] !== 0x0a) continue;
        if (buffer[i] === 0x0a) return this.takeHeaders(i, i + 1);
        if (buffer[i] === 0x0d) {
          if (i + 1 >= buffer.length) break;
          if (buffer[i + 1] === 0x0a) return this.takeHeaders(i, i + 2);
        }
      }
      // The last byte is looked at again with the next chunk (a CR, or the LF before a line start).
      from = Math.max(0, buffer.length - 1);
      if (buffer.length > this.limits.maxHeaderBytes)
        throw invalidMultipart(`has a part whose headers exceed ${this.limits.maxHeaderBytes} bytes`);
      if (!(await this.fill())) throw invalidMultipart('ends inside a part’s headers');
    }
  }

  private takeHeaders(end: number, next: number): Buffer {
    if (end > this.limits.maxHeaderBytes)
      throw invalidMultipart(`has a part whose headers exceed ${this.limits.maxHeaderBytes} bytes`);
    const block = this.buffer.subarray(0, end);
    this.buffer = this.buffer.subarray(next);
    return block;
  }

  /** The current part's bytes up to the next delimiter; then the boundary line is read. */
  private async *readBody(): AsyncGenerator<Buffer> {
    const delimiter = this.delimiter as Buffer;
    for (;;) {
      const at = this.buffer.indexOf(delimiter);
      if (at >= 0) {
        if (at > 0) yield this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + delimiter.length);
        const lineEnd = await this.readBoundaryLineEnd();
        this.state = lineEnd ? 'headers' : 'done';
        return;
      }
      // All but what could begin a delimiter is the part's for certain.
      const safe = this.buffer.length - (delimiter.length - 1);
      if (safe > 0) {
        const chunk = this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
        yield chunk;
      }
      if (!(await this.fill())) throw invalidMultipart('ends before its closing boundary');
    }
  }
}
