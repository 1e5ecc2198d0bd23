import { makeStyles, tokens } from '@fluentui/react-components';
import { Highlight, themes } from 'prism-react-renderer';

const useStyles = makeStyles({
  pre: {
    margin: 0,
    padding: '12px',
    overflow: 'auto',
    maxHeight: '60vh',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    borderRadius: tokens.borderRadiusMedium,
  },
  number: {
    display: 'inline-block',
    width: '3em',
    paddingRight: '12px',
    textAlign: 'right',
    userSelect: 'none',
    color: '#57606a',
  },
});

/** YAML with syntax highlighting and line numbers (prism-react-renderer). */
export function YamlView({ content, label }: { content: string; label: string }) {
  const styles = useStyles();
  return (
    <Highlight theme={themes.github} code={content.replace(/\n$/, '')} language="yaml">
      {({ style, tokens: lines, getLineProps, getTokenProps }) => (
        <pre className={styles.pre} style={style} role="region" aria-label={label} tabIndex={0}>
          {lines.map((line, i) => (
            <div key={i} {...getLineProps({ line })}>
              <span className={styles.number} aria-hidden="true">
                {i + 1}
              </span>
              {line.map((token, key) => (
                <span key={key} {...getTokenProps({ token })} />
              ))}
            </div>
          ))}
        </pre>
      )}
    </Highlight>
  );
}
