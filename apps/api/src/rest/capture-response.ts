import { EventEmitter } from 'node:events';

/**
 * Stands in for the ServerResponse given to the trpc-to-openapi handler, which only sets
 * a status, headers and one JSON body. Capturing it lets us render legacy XML, apply
 * 201/Location and reshape errors before anything reaches the socket.
 */
export class CaptureResponse extends EventEmitter {
  statusCode = 200;
  writableEnded = false;
  body = '';
  readonly headers: Record<string, string | string[]> = {};
  private resolveDone!: () => void;
  readonly done = new Promise<void>((resolve) => {
    this.resolveDone = resolve;
  });

  setHeader(name: string, value: string | string[]) {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  getHeader(name: string) {
    return this.headers[name.toLowerCase()];
  }
  end(body?: string | Buffer) {
    if (body !== undefined) this.body = typeof body === 'string' ? body : body.toString('utf8');
    this.writableEnded = true;
    this.resolveDone();
    return this;
  }
}
