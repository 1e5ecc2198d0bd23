import { makeStyles, tokens } from '@fluentui/react-components';
import { Highlight, type PrismTheme } from 'prism-react-renderer';

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

/** Light colours that keep WCAG AA contrast (4.5:1) on the panel's background. */
const theme: PrismTheme = {
  plain: { color: '#1f2328', backgroundColor: '#f6f8fa' },
  styles: [
    { types: ['comment', 'prolog'], style: { color: '#57606a', fontStyle: 'italic' } },
    { types: ['atrule', 'key', 'property', 'tag'], style: { color: '#0550ae' } },
    { types: ['string', 'char', 'attr-value'], style: { color: '#0a3069' } },
    { types: ['number', 'boolean', 'important'], style: { color: '#953800' } },
    { types: ['punctuation', 'operator'], style: { color: '#1f2328' } },
  ],
};

/** YAML with syntax highlighting and line numbers (prism-react-renderer). */
export function YamlView({ content, label }: { content: string; label: string }) {
  const styles = useStyles();
  return (
    <Highlight theme={theme} code={content.replace(/\n$/, '')} language="yaml">
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
