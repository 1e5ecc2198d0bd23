import {
  canGoToStep,
  REVIEW_STEP_LABELS,
  REVIEW_STEPS,
  type ReviewState,
  type ReviewStep,
} from '@aegis/domain';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { CheckmarkCircleRegular } from '@fluentui/react-icons';

const useStyles = makeStyles({
  strip: {
    display: 'flex',
    gap: '8px',
    alignItems: 'center',
    flexWrap: 'wrap',
    listStyleType: 'none',
    padding: 0,
    margin: '0 0 16px 0',
  },
  separator: { color: tokens.colorNeutralForeground3 },
});

/** Review, Approve, Submit PR, Complete: a step can be clicked back to only if the prior one is completed. */
export function StepStrip({
  state,
  onGoTo,
}: {
  state: ReviewState;
  onGoTo: (step: ReviewStep) => void;
}) {
  const styles = useStyles();
  return (
    <ol className={styles.strip} aria-label="Review progress">
      {REVIEW_STEPS.map((step, i) => {
        const current = state.step === step;
        const done = state.completed.has(step);
        const clickable = canGoToStep(state, step);
        return (
          <li key={step} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            {i > 0 && <span className={styles.separator}>›</span>}
            <Button
              size="small"
              appearance={current ? 'primary' : 'subtle'}
              aria-current={current ? 'step' : undefined}
              disabled={!current && !clickable}
              icon={done ? <CheckmarkCircleRegular /> : undefined}
              onClick={() => clickable && onGoTo(step)}
            >
              {i + 1}. {REVIEW_STEP_LABELS[step]}
            </Button>
          </li>
        );
      })}
    </ol>
  );
}
