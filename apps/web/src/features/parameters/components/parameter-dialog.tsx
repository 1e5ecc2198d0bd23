import type { ParameterChangeBody } from '@aegis/contracts';
import { parameterNameProblem, type ParameterValue } from '@aegis/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Textarea,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: '12px' },
});

type ValueType = 'text' | 'number' | 'boolean';

const typeOf = (value: ParameterValue | undefined): ValueType =>
  typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'text';

export interface ParameterDialogProps {
  /** the parameter edited; undefined to add one (its name prefilled when the baseline needs it) */
  editing?: { name: string; value?: ParameterValue };
  /** names the client already has: adding one of them is an edit, not an add */
  existing: readonly string[];
  pending: boolean;
  /** the server's answer to the last submission, shown in the dialog */
  error?: string;
  onSubmit: (body: ParameterChangeBody) => void;
  onClose: () => void;
}

/** Add or change one parameter; the change is proposed as a pull request (four eyes). */
export function ParameterDialog({
  editing,
  existing,
  pending,
  error,
  onSubmit,
  onClose,
}: ParameterDialogProps) {
  const styles = useStyles();
  const fixedName = editing?.value !== undefined;
  const [name, setName] = useState(editing?.name ?? '');
  const [type, setType] = useState<ValueType>(typeOf(editing?.value));
  const [text, setText] = useState(
    editing?.value === undefined || typeof editing.value === 'boolean' ? '' : String(editing.value),
  );
  const [flag, setFlag] = useState(editing?.value === true ? 'true' : 'false');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);

  const nameProblem =
    parameterNameProblem(name) ??
    (!fixedName && existing.includes(name)
      ? 'the client already has it: edit it instead'
      : undefined);
  const number = Number(text);
  const valueProblem =
    type === 'number' && (text.trim() === '' || !Number.isFinite(number))
      ? 'must be a number'
      : type === 'text' && text === ''
        ? 'must not be empty'
        : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (nameProblem || valueProblem) return;
    const value: ParameterValue =
      type === 'number' ? number : type === 'boolean' ? flag === 'true' : text;
    onSubmit({ set: { [name]: value }, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  };

  return (
    <Dialog open onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface>
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>{fixedName ? `Change '${name}'` : 'Add a parameter'}</DialogTitle>
            <DialogContent className={styles.form}>
              <Field
                label="Name"
                required
                validationMessage={touched ? nameProblem : undefined}
                hint="A letter, then letters, digits or _. The baseline names it {{aegis:param:NAME}}."
              >
                <Input
                  value={name}
                  disabled={fixedName}
                  onChange={(_, data) => setName(data.value)}
                />
              </Field>
              <Field label="Type">
                <RadioGroup
                  layout="horizontal"
                  value={type}
                  onChange={(_, data) => setType(data.value as ValueType)}
                >
                  <Radio value="text" label="Text" />
                  <Radio value="number" label="Number" />
                  <Radio value="boolean" label="True or false" />
                </RadioGroup>
              </Field>
              {type === 'boolean' ? (
                <Field label="Value">
                  <RadioGroup
                    layout="horizontal"
                    value={flag}
                    onChange={(_, data) => setFlag(data.value)}
                  >
                    <Radio value="true" label="true" />
                    <Radio value="false" label="false" />
                  </RadioGroup>
                </Field>
              ) : (
                <Field
                  label="Value"
                  required
                  validationMessage={touched ? valueProblem : undefined}
                >
                  <Input value={text} onChange={(_, data) => setText(data.value)} />
                </Field>
              )}
              <Field label="Reason (for the reviewer)">
                <Textarea value={reason} onChange={(_, data) => setReason(data.value)} />
              </Field>
              {error && (
                <MessageBar intent="error">
                  <MessageBarBody>{error}</MessageBarBody>
                </MessageBar>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={pending}>
                {pending ? 'Proposing...' : 'Propose change'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
