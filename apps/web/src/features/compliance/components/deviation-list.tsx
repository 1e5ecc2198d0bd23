import {
  ACCEPTANCE_FLAG_LABELS,
  deviationsByCategory,
  policyKindFolder,
  propertyPreview,
  type DeviationSummary,
} from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, ArrowSortRegular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';

import { SEVERITY_LABELS, SeverityIcon } from './severity';

const useStyles = makeStyles({
  head: { display: 'flex', alignItems: 'center', gap: '8px', flexWrap: 'wrap' },
  title: { flexGrow: 1 },
  counts: { display: 'flex', gap: '6px', flexWrap: 'wrap', marginLeft: '8px' },
  item: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: '10px',
    width: '100%',
    textAlign: 'left',
    padding: '10px 12px',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    marginBottom: '8px',
  },
  itemBody: { display: 'flex', flexDirection: 'column', gap: '4px', minWidth: 0, flexGrow: 1 },
  itemHead: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  kind: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  preview: {
    color: tokens.colorNeutralForeground2,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: 'anywhere',
  },
});

function DeviationItem({
  group,
  layer,
  onOpen,
}: {
  group: DeviationSummary;
  /** the baseline layer the expected values come from; undefined for the company baseline */
  layer: string | undefined;
  onOpen: () => void;
}) {
  const styles = useStyles();
  const preview = propertyPreview(group);
  const flagged = group.deviations.filter((d) => d.acceptance);
  return (
    <button type="button" className={styles.item} onClick={onOpen}>
      <SeverityIcon severity={group.highestSeverity} />
      <span className={styles.itemBody}>
        <span className={styles.itemHead}>
          <Text weight="semibold">{group.policyName}</Text>
          {policyKindFolder(group.path) && (
            <Text size={200} className={styles.kind}>
              {policyKindFolder(group.path)}
            </Text>
          )}
          <Badge appearance="tint" color="informative">
            {SEVERITY_LABELS[group.highestSeverity]}
          </Badge>
          {layer && <Badge appearance="outline" color="brand">{`Layer: ${layer}`}</Badge>}
          <Text size={200}>
            {group.deviationCount} {group.deviationCount === 1 ? 'property' : 'properties'}
          </Text>
          {group.hasArrayChanges && (
            <Badge appearance="outline" icon={<ArrowSortRegular />}>
              Array changes
            </Badge>
          )}
          {group.matchStatus === 'matched' && (
            <Badge appearance="tint" color="brand">
              Matched
            </Badge>
          )}
          {[...new Set(flagged.map((d) => d.acceptance!.status))].map((s) => (
            <Badge key={s} appearance="filled" color="warning">
              {ACCEPTANCE_FLAG_LABELS[s]}
            </Badge>
          ))}
        </span>
        {!group.isMissing && (
          <span className={styles.preview}>
            {preview.shown.join(', ')}
            {preview.more ? ` ${preview.more}` : ''}
          </span>
        )}
        {group.isMissing && (
          <Text size={200}>
            {group.isPrerequisite
              ? 'Baseline Prerequisite Policy'
              : 'Policy Missing from Client Configuration'}
          </Text>
        )}
      </span>
    </button>
  );
}

/** 'Policy Deviations by Service Area' (spec 3 §2). */
export function DeviationList({
  groups,
  layers = {},
  onOpen,
  onExport,
}: {
  groups: readonly DeviationSummary[];
  /** resource path → the baseline layer its policy comes from (ADR 068) */
  layers?: Readonly<Record<string, string>>;
  onOpen: (group: DeviationSummary) => void;
  onExport?: () => void;
}) {
  const styles = useStyles();
  const categories = useMemo(() => deviationsByCategory(groups), [groups]);
  const [open, setOpen] = useState<string[]>([]);
  return (
    <section aria-label="Policy Deviations by Service Area">
      <div className={styles.head}>
        <Text as="h3" size={500} weight="semibold" className={styles.title}>
          Policy Deviations by Service Area
        </Text>
        <Button onClick={() => setOpen(categories.map((c) => c.category))}>Expand All</Button>
        <Button onClick={() => setOpen([])}>Collapse All</Button>
        {onExport && (
          <Button appearance="primary" icon={<ArrowDownloadRegular />} onClick={onExport}>
            Export Report
          </Button>
        )}
      </div>
      <Accordion
        multiple
        collapsible
        openItems={open}
        onToggle={(_e, data) => setOpen(data.openItems.map(String))}
      >
        {categories.map((c) => (
          <AccordionItem key={c.category} value={c.category}>
            <AccordionHeader>
              <Text weight="semibold">{c.category}</Text>
              <span className={styles.counts}>
                <Badge color="danger">{c.counts.critical} critical</Badge>
                <Badge color="severe">{c.counts.high} high</Badge>
                <Badge color="warning" appearance="tint">
                  {c.counts.medium} medium
                </Badge>
                <Badge color="success" appearance="tint">
                  {c.counts.low} low
                </Badge>
                <Badge color="informative" appearance="outline">
                  {c.counts.prerequisite} prerequisite
                </Badge>
              </span>
            </AccordionHeader>
            <AccordionPanel>
              {c.groups.map((g) => (
                <DeviationItem
                  key={g.path}
                  group={g}
                  layer={layers[g.path]}
                  onOpen={() => onOpen(g)}
                />
              ))}
            </AccordionPanel>
          </AccordionItem>
        ))}
      </Accordion>
    </section>
  );
}
