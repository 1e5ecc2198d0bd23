import { makeStyles, Text, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

import { usePageTitle } from '../lib/use-page-title';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '12px',
    marginBottom: '16px',
    flexWrap: 'wrap',
  },
  subtitle: { color: tokens.colorNeutralForeground3, display: 'block' },
});

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: string;
  subtitle?: string;
  actions?: ReactNode;
}) {
  const styles = useStyles();
  usePageTitle(title);
  return (
    <div className={styles.root}>
      <div>
        <Text as="h1" size={700} weight="semibold" block>
          {title}
        </Text>
        {subtitle && <Text className={styles.subtitle}>{subtitle}</Text>}
      </div>
      {actions && <div>{actions}</div>}
    </div>
  );
}
