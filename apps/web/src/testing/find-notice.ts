import { waitFor } from '@testing-library/react';

/**
 * The notice (a toast of the app's notifier, a list item named by its title) whose title is
 * `title`. Found by the title element, not by a role query over the whole page (see findDialog).
 */
export async function findNotice(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const notices = document.querySelectorAll<HTMLElement>('[role="listitem"][aria-labelledby]');
    const notice = [...notices].find((candidate) => {
      const id = candidate.getAttribute('aria-labelledby') ?? '';
      return document.getElementById(id)?.textContent === title;
    });
    if (!notice) throw new Error(`No notice titled "${title}"`);
    return notice;
  });
}

/** The titles of the notices on screen, in document order (newest first). */
export function noticeTitles(): string[] {
  return [...document.querySelectorAll<HTMLElement>('[role="listitem"][aria-labelledby]')].map(
    (notice) =>
      document.getElementById(notice.getAttribute('aria-labelledby') ?? '')?.textContent ?? '',
  );
}
