/**
 * A name any file system and git path can hold: the characters Windows agents or git refuse
 * (`\ / : * ? " < > |` and control characters) become '_', white space around it is trimmed, and
 * nothing left is '_'. The one rule for policy files and report downloads.
 */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || '_';
}
