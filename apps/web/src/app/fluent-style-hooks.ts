import {
  makeStyles,
  mergeClasses,
  tokens,
  type CheckboxState,
  type FluentProviderCustomStyleHooks,
  type RadioState,
} from '@fluentui/react-components';

/**
 * Fluent v9 draws the label of an unchecked radio or checkbox in colorNeutralForeground3, the grey
 * of secondary text, and only a checked one in colorNeutralForeground1: next to the checked choice
 * the other choices look disabled (issue 19). Every enabled choice reads as a choice here; the
 * checked one is told by its indicator, and disabled ones keep Fluent's disabled colour.
 */
const useChoiceStyles = makeStyles({
  radioInput: {
    // radioClassNames.label, written out: importing it would pull Radio's styles into the landing page
    ':enabled:not(:checked) ~ .fui-Radio__label': {
      color: tokens.colorNeutralForeground1,
    },
  },
  checkboxRoot: { color: tokens.colorNeutralForeground1 },
});

function useRadioStyles(state: unknown): void {
  const styles = useChoiceStyles();
  const radio = state as RadioState;
  radio.input.className = mergeClasses(radio.input.className, styles.radioInput);
}

function useCheckboxStyles(state: unknown): void {
  const styles = useChoiceStyles();
  const checkbox = state as CheckboxState;
  if (checkbox.input.disabled) return;
  checkbox.root.className = mergeClasses(checkbox.root.className, styles.checkboxRoot);
}

/** Style hooks the FluentProvider applies after each component's own styles. */
export const customStyleHooks: FluentProviderCustomStyleHooks = {
  useRadioStyles_unstable: useRadioStyles,
  useCheckboxStyles_unstable: useCheckboxStyles,
};
