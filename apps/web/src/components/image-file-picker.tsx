import {
  IMAGE_SNIFF_BYTES,
  imageFormatOf,
  notAnImageMessage,
  type ImageFormat,
} from '@aegis/domain';
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { DismissRegular, ImageAddRegular } from '@fluentui/react-icons';
import { useRef, type ChangeEvent } from 'react';

export interface PickedImage {
  readonly name: string;
  readonly dataUrl: string;
}

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap' },
  input: { display: 'none' },
  name: {
    maxWidth: '220px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    color: tokens.colorNeutralForeground2,
  },
  preview: {
    maxHeight: '56px',
    maxWidth: '220px',
    objectFit: 'contain',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px',
    backgroundColor: tokens.colorNeutralBackground1,
  },
});

/** The bytes of a file (or of its start), through FileReader as every browser has it. */
function readBytes(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * An image chosen for a report (the comparison report's custom logo, the compliance report's
 * company banner): a Fluent button opening the file chooser, the chosen file's name, a preview
 * and a remove button. `check` may refuse a file with a message (shown by the caller's Field);
 * a file whose content is not one of `formats` is refused whatever its name (issue 27).
 */
export function ImageFilePicker({
  label,
  accept,
  formats,
  value,
  onChange,
  check,
  onProblem,
}: {
  /** Names the control, e.g. 'Custom logo'; the preview is '{label} preview'. */
  label: string;
  accept: string;
  /** the image formats the file's content must be (its first bytes are read to know) */
  formats: readonly ImageFormat[];
  value: PickedImage | undefined;
  onChange: (image: PickedImage | undefined) => void;
  check?: (file: File) => string | undefined;
  onProblem?: (problem: string | undefined) => void;
}) {
  const styles = useStyles();
  const input = useRef<HTMLInputElement>(null);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = check?.(file);
    onProblem?.(problem);
    if (problem) return;
    const unreadable = () => onProblem?.(`${file.name} could not be read.`);
    readBytes(file.slice(0, IMAGE_SNIFF_BYTES)).then((head) => {
      const format = imageFormatOf(head);
      if (!format || !formats.includes(format)) {
        onProblem?.(notAnImageMessage(file.name, formats));
        return;
      }
      const reader = new FileReader();
      // readAsDataURL's result is the data: URL
      reader.onload = () => onChange({ name: file.name, dataUrl: reader.result as string });
      reader.onerror = unreadable;
      reader.readAsDataURL(file);
    }, unreadable);
  };

  return (
    <div className={styles.row}>
      <input
        ref={input}
        className={styles.input}
        type="file"
        accept={accept}
        aria-label={label}
        tabIndex={-1}
        onChange={pick}
      />
      <Button icon={<ImageAddRegular />} onClick={() => input.current?.click()}>
        {value ? `Change ${label.toLowerCase()}...` : `Choose ${label.toLowerCase()}...`}
      </Button>
      {value ? (
        <>
          <img className={styles.preview} src={value.dataUrl} alt={`${label} preview`} />
          <Text className={styles.name} title={value.name}>
            {value.name}
          </Text>
          <Button
            appearance="subtle"
            icon={<DismissRegular />}
            onClick={() => {
              onProblem?.(undefined);
              onChange(undefined);
            }}
          >
            Remove image
          </Button>
        </>
      ) : (
        <Text className={styles.name}>No file chosen</Text>
      )}
    </div>
  );
}
