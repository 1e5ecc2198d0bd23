import {
  complianceBand,
  formatSummaryPercentage,
  makesCapturePartial,
  passRateIcon,
} from '@aegis/domain';
import {
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarBody,
  mergeClasses,
  SearchBox,
  Switch,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleFilled, DismissCircleFilled, WarningFilled } from '@fluentui/react-icons';

import { NotCapturedNotice } from '../../../components/not-captured-notice';
import type { ComparisonFlow } from '../hooks/use-comparison-flow';
import { BASELINE_LABELS, type ComparisonView, type ResultFilter } from '../utils/view-model';

import { BAND_COLOURS, ComplianceChart } from './compliance-chart';
import { ResultsList } from './results-list';

const useStyles = makeStyles({
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: '12px',
  },
  tile: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '4px' },
  big: { fontSize: tokens.fontSizeHero800, fontWeight: tokens.fontWeightSemibold, lineHeight: 1.1 },
  areas: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))',
    gap: '12px',
  },
  area: { padding: '12px 16px', display: 'flex', flexDirection: 'column', gap: '6px' },
  areaHead: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '8px' },
  section: { padding: '16px', display: 'flex', flexDirection: 'column', gap: '12px' },
  heading: { margin: 0 },
  toolbar: { display: 'flex', gap: '12px', alignItems: 'center', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  pass: { color: tokens.colorPaletteGreenForeground1 },
  fail: { color: tokens.colorPaletteRedForeground1 },
  warn: { color: tokens.colorStatusWarningForeground3 },
  empty: { padding: '32px', textAlign: 'center' },
});

function ScoreIcon({ percentage }: { percentage: number }) {
  const styles = useStyles();
  const icon = passRateIcon(percentage);
  if (icon === 'tick') return <CheckmarkCircleFilled className={styles.pass} aria-label="Good" />;
  if (icon === 'warning') return <WarningFilled className={styles.warn} aria-label="Warning" />;
  return <DismissCircleFilled className={styles.fail} aria-label="Poor" />;
}

/** The results of a finished comparison: score, areas, and the filtered list of checks. */
export function ComparisonResults({ flow, view }: { flow: ComparisonFlow; view: ComparisonView }) {
  const styles = useStyles();
  const { result, shown, expanded } = flow;
  const { filter, onlyFails, search } = flow.address;
  const band = complianceBand(view.score);
  return (
    <>
      {view.warnings.length > 0 && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            {view.warnings.map((w) => (
              <div key={w}>{w}</div>
            ))}
          </MessageBarBody>
        </MessageBar>
      )}
      {result && (
        <NotCapturedNotice
          workloads={result.notCaptured}
          partial={result.notCaptured.some(makesCapturePartial)}
        />
      )}
      <Text as="h2" size={600} weight="semibold" className={styles.heading}>
        Results for {view.client} – {BASELINE_LABELS[view.baselineType]}
      </Text>
      <div className={styles.tiles}>
        <Card className={styles.tile} aria-label="Overall score">
          <Text>Overall Score</Text>
          <Text className={styles.big} style={{ color: BAND_COLOURS[band.colour] }}>
            <ScoreIcon percentage={view.score} /> {formatSummaryPercentage(view.score)}
          </Text>
          <Text size={200}>{band.band[0]?.toUpperCase() + band.band.slice(1)}</Text>
        </Card>
        <Card className={styles.tile} aria-label="Total passes">
          <Text>Total Passes</Text>
          <Text className={mergeClasses(styles.big, styles.pass)}>{view.passed}</Text>
        </Card>
        <Card className={styles.tile} aria-label="Total fails">
          <Text>Total Fails</Text>
          <Text className={mergeClasses(styles.big, styles.fail)}>{view.failed}</Text>
        </Card>
      </div>

      <Card className={styles.section}>
        <Text as="h3" size={500} weight="semibold" className={styles.heading}>
          Compliance by area
        </Text>
        <ComplianceChart categories={view.categories} />
      </Card>

      <div className={styles.areas}>
        {view.categories.map((c) => (
          <Card key={c.name} className={styles.area} aria-label={`${c.name} area`}>
            <div className={styles.areaHead}>
              <Text weight="semibold">{c.name}</Text>
              <Text weight="semibold">{formatSummaryPercentage(c.percentage)}</Text>
            </div>
            <Text size={200}>
              <span className={styles.pass}>{c.passing} passing</span> ·{' '}
              <span className={styles.fail}>{c.failing} failing</span>
            </Text>
            <Text
              size={200}
              weight="semibold"
              className={
                c.status === 'All Pass'
                  ? styles.pass
                  : c.status === 'Mixed'
                    ? styles.warn
                    : styles.fail
              }
            >
              {c.status}
            </Text>
            <Button
              size="small"
              onClick={() => flow.dispatch({ type: 'open', dialog: { open: 'area', category: c } })}
              aria-label={`View Details for ${c.name}`}
            >
              View Details
            </Button>
          </Card>
        ))}
      </div>

      <Card className={styles.section}>
        <div className={styles.toolbar}>
          <Switch
            checked={onlyFails}
            onChange={(_e, data) =>
              flow.dispatch({ type: 'filter', change: { onlyFails: data.checked } })
            }
            label={onlyFails ? 'Show Only Fails' : 'Show All Results'}
          />
          <TabList
            size="small"
            selectedValue={filter}
            onTabSelect={(_e, data) =>
              flow.dispatch({ type: 'filter', change: { filter: data.value as ResultFilter } })
            }
            aria-label="Filter results"
          >
            <Tab value="all">All</Tab>
            <Tab value="passed">Passed</Tab>
            <Tab value="failed">Failed</Tab>
          </TabList>
          <SearchBox
            className={styles.grow}
            placeholder="Search categories"
            aria-label="Search categories"
            value={search}
            onChange={(_e, data) =>
              flow.dispatch({ type: 'filter', change: { search: data.value } })
            }
          />
          <Button
            onClick={() => flow.dispatch({ type: 'expand', categories: shown.map((c) => c.name) })}
          >
            Expand All
          </Button>
          <Button onClick={() => flow.dispatch({ type: 'expand', categories: [] })}>
            Collapse All
          </Button>
        </div>
        {shown.length === 0 ? (
          <Text className={styles.empty} role="status">
            No results match the current filters.
          </Text>
        ) : (
          <ResultsList
            categories={shown}
            expanded={expanded}
            onToggle={(category) => flow.dispatch({ type: 'toggle', category })}
            onInfo={(policy) => flow.dispatch({ type: 'open', dialog: { open: 'info', policy } })}
          />
        )}
      </Card>
    </>
  );
}
