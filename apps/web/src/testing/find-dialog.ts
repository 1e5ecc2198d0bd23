import { screen, within } from '@testing-library/react';

/**
 * The open dialog whose title (Fluent renders DialogTitle as an h2) is `title`. Found by its title text: a role query by accessible name
 * over the whole page computes every element's name and, on a busy CI machine, can outlast the
 * query timeout.
 */
export async function findDialog(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: 'h2' });
  const dialog = heading.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]');
  if (!dialog) throw new Error(`"${title}" is not the title of a dialog`);
  // wait until the surface is rendered with its content, not only the title
  await within(dialog).findAllByRole('button');
  return dialog;
}
