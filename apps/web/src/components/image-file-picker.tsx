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

/**
 * An image chosen for a report (the comparison report's custom logo, the compliance report's
 * company banner): a Fluent button opening the file chooser, the chosen file's name, a preview
 * and a remove button. `check` may refuse a file with a message (shown by the caller's Field).
 */
export function ImageFilePicker({
  label,
  accept,
  value,
  onChange,
  check,
  onProblem,
}: {
  /** Names the control, e.g. 'Custom logo'; the preview is '{label} preview'. */
  label: string;
  accept: string;
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
    const reader = new FileReader();
    reader.onload = () => onChange({ name: file.name, dataUrl: String(reader.result) });
    reader.onerror = () => onProblem?.(`${file.name} could not be read.`);
    reader.readAsDataURL(file);
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
