import { UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';

import { NoAccountError } from './auth-client';
import { LocalAuthClient } from './local-auth-client';

/** One tab's session storage: each tab of a browser has its own. */
class TabStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const clients: LocalAuthClient[] = [];
afterEach(() => {
  clients.splice(0).forEach((c) => c.close());
});

function tab(storage = new TabStorage()) {
  const client = new LocalAuthClient('http://idp.invalid', storage);
  clients.push(client);
  return { client, storage };
}

/** A token as the client reads it (only its claims: the server checks signatures). */
function token(expiresInSeconds: number): string {
  return new UnsecuredJWT({ upn: 'alex.morgan@aegis-msp.example' })
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
    .encode();
}

describe('the local sign-in across tabs', () => {
  it('a new tab receives the sign-in of an open tab, into its own session storage', async () => {
    const open = tab();
    const signedIn = token(3600);
    open.storage.setItem('aegis.signInCache', signedIn);
    const opened = tab();
    expect(await opened.client.getAccessToken()).toBe(signedIn);
    expect(opened.storage.getItem('aegis.signInCache')).toBe(signedIn);
  });

  it('no open tab signed in (or only with an expired token): the new tab must sign in', async () => {
    const open = tab();
    open.storage.setItem('aegis.signInCache', token(10));
    await expect(tab().client.getAccessToken()).rejects.toBeInstanceOf(NoAccountError);
  });

  it('signing out in one tab signs the other tabs out', async () => {
    const signedIn = token(3600);
    const first = tab();
    const second = tab();
    first.storage.setItem('aegis.signInCache', signedIn);
    second.storage.setItem('aegis.signInCache', signedIn);
    await first.client.signOut();
    await expect
      .poll(() => second.storage.getItem('aegis.signInCache'), { timeout: 2000 })
      .toBeNull();
  });
});
