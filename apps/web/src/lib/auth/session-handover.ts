/** What the tabs of one browser say to each other about the sign-in (same origin only). */
type HandoverMessage =
  | { readonly type: 'request' }
  | { readonly type: 'token'; readonly token: string }
  | { readonly type: 'signed-out' };

/** How long a new tab waits for an open tab to answer: tabs answer at once, or not at all. */
const ANSWER_WAIT_IN_MS = 400;

/**
 * Hands a tab's sign-in to a new tab of the same browser (ADR 055). The token stays in each tab's
 * session storage (spec 1 §3), never in storage that outlives the browser; a tab opened from a link
 * asks the open tabs over a BroadcastChannel, which only pages of the same origin can join, and a
 * sign-out in one tab signs every tab out.
 */
export class SessionHandover {
  private readonly channel: BroadcastChannel;
  private readonly waiting = new Set<(token: string) => void>();

  constructor(
    name: string,
    private readonly currentToken: () => string | undefined,
    private readonly receive: (token: string | undefined) => void,
  ) {
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (event: MessageEvent<HandoverMessage>) => this.handle(event.data);
  }

  private handle(message: HandoverMessage): void {
    if (message.type === 'request') {
      const token = this.currentToken();
      if (token) this.channel.postMessage({ type: 'token', token } satisfies HandoverMessage);
    } else if (message.type === 'token') {
      for (const resolve of this.waiting) resolve(message.token);
    } else {
      this.receive(undefined);
    }
  }

  /** The sign-in of another open tab, if one answers. */
  async request(): Promise<string | undefined> {
    let resolveToken: ((token: string) => void) | undefined;
    const answered = new Promise<string>((resolve) => {
      resolveToken = resolve;
      this.waiting.add(resolve);
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ANSWER_WAIT_IN_MS);
    });
    this.channel.postMessage({ type: 'request' } satisfies HandoverMessage);
    const token = await Promise.race([answered, timeout]);
    clearTimeout(timer);
    if (resolveToken) this.waiting.delete(resolveToken);
    if (token) this.receive(token);
    return token;
  }

  /** Tells the other tabs this browser signed out. */
  signedOut(): void {
    this.channel.postMessage({ type: 'signed-out' } satisfies HandoverMessage);
  }

  close(): void {
    this.channel.close();
  }
}
