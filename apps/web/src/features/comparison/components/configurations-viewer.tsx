import type { ConfigurationFile, Configurations } from '@aegis/contracts';
import { toResourcePath } from '@aegis/domain';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  columns: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(380px, 1fr))',
    gap: '16px',
  },
  column: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '12px',
    maxHeight: '70vh',
    overflowY: 'auto',
    backgroundColor: tokens.colorNeutralBackground1,
  },
  pre: {
    margin: 0,
    padding: '8px',
    overflowX: 'auto',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    // Long values wrap inside the pane instead of being cut off at its edge.
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  path: { overflowWrap: 'anywhere', wordBreak: 'normal' },
  invalid: { color: tokens.colorPaletteRedForeground1 },
});

function Files({ title, files }: { title: string; files: readonly ConfigurationFile[] }) {
  const styles = useStyles();
  return (
    <section className={styles.column} aria-label={title}>
      <Text as="h3" weight="semibold" size={400} block style={{ margin: '0 0 8px' }}>
        {title} ({files.length} files)
      </Text>
      <Accordion multiple collapsible>
        {files.map((file) => (
          <AccordionItem key={file.path} value={file.path}>
            <AccordionHeader size="small">
              <span className={styles.path} title={file.path}>
                {toResourcePath(file.path)}
                {file.content === null && <span className={styles.invalid}> (invalid JSON)</span>}
              </span>
            </AccordionHeader>
            <AccordionPanel>
              <pre
                className={styles.pre}
                role="region"
                aria-label={`Contents of ${toResourcePath(file.path)}`}
                tabIndex={0}
              >
                {file.content === null ? (file.text ?? '') : JSON.stringify(file.content, null, 2)}
              </pre>
            </AccordionPanel>
          </AccordionItem>
        ))}
      </Accordion>
    </section>
  );
}

/** Both configurations side by side as formatted JSON (spec 1 §2). */
export function ConfigurationsViewer({ configurations }: { configurations: Configurations }) {
  const styles = useStyles();
  return (
    <div className={styles.columns}>
      <Files title="Baseline configuration" files={configurations.baseline.files} />
      <Files
        title={`Client configuration (${configurations.client})`}
        files={configurations.clientConfiguration.files}
      />
    </div>
  );
}
