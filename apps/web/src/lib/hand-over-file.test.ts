import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { handOverFile, OBJECT_URL_LIFETIME_MS } from './hand-over-file';

describe('handOverFile', () => {
  const clicked: { link: HTMLAnchorElement; inDocument: boolean }[] = [];
  const revoked: string[] = [];
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:aegis/1');

  beforeEach(() => {
    vi.useFakeTimers();
    // jsdom has no object URLs; these stand in for the browser's.
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ link: this, inDocument: this.isConnected });
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    createObjectURL.mockClear();
    clicked.length = 0;
    revoked.length = 0;
  });

  it('saves under the given name, leaves no link behind and revokes the URL only later', () => {
    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    handOverFile(pdf, { saveAs: 'FAB_Compliance_Report.pdf' });

    expect(createObjectURL).toHaveBeenCalledWith(pdf);
    expect(clicked).toHaveLength(1);
    const [{ link, inDocument }] = clicked as [(typeof clicked)[number]];
    expect(inDocument).toBe(true);
    expect(link.download).toBe('FAB_Compliance_Report.pdf');
    expect(link.href).toBe('blob:aegis/1');
    expect(link.target).toBe('');
    expect(link.isConnected).toBe(false);

    vi.advanceTimersByTime(OBJECT_URL_LIFETIME_MS - 1);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(revoked).toEqual(['blob:aegis/1']);
  });

  it('opens in a new tab without a download name and without giving the tab an opener', () => {
    handOverFile(new Blob(['%PDF-1.7']), 'new-tab');

    expect(clicked).toHaveLength(1);
    const [{ link }] = clicked as [(typeof clicked)[number]];
    expect(link.target).toBe('_blank');
    expect(link.rel).toBe('noopener');
    expect(link.hasAttribute('download')).toBe(false);
  });
});
