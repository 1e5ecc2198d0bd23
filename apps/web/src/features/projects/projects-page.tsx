import { matchesProjectSearch } from '@aegis/domain';
import {
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  SearchBox,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';

import { PageHeader } from '../../components/page-header';

import { useProjects } from './api/get-projects';
import { ProjectCard } from './components/project-card';

/** The search is remembered for the browser session (spec 1 §2). */
const SEARCH_KEY = 'aegis.projects.search';
/** Spec 1 §9. */
const REFRESH_SPINNER_MS = 500;

const useStyles = makeStyles({
  toolbar: {
    display: 'flex',
    gap: '12px',
    alignItems: 'center',
    flexWrap: 'wrap',
    marginBottom: '16px',
  },
  search: { minWidth: '320px' },
  counters: { display: 'flex', gap: '12px', marginBottom: '16px' },
  counter: { padding: '12px 20px', minWidth: '160px' },
  counterValue: { fontSize: tokens.fontSizeHero700, fontWeight: tokens.fontWeightSemibold },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
    gap: '12px',
  },
  empty: {
    padding: '48px',
    textAlign: 'center',
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
  },
});

export function ProjectsPage() {
  const styles = useStyles();
  const projects = useProjects();
  const [search, setSearch] = useState(() => sessionStorage.getItem(SEARCH_KEY) ?? '');
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    sessionStorage.setItem(SEARCH_KEY, search);
  }, [search]);

  useEffect(() => {
    if (!refreshing) return;
    const timer = setTimeout(() => setRefreshing(false), REFRESH_SPINNER_MS);
    return () => clearTimeout(timer);
  }, [refreshing]);

  function refresh(): void {
    setSearch('');
    setRefreshing(true);
    void projects.refetch();
  }

  const all = projects.data?.projects ?? [];
  // no figure until there is one: '0' while loading or after a failure would read as no projects
  const counterValue = (count: number) =>
    projects.data ? count : projects.isPending ? <Spinner size="tiny" aria-label="Loading" /> : '–';
  const shown = all.filter((project) => matchesProjectSearch(project, search));

  return (
    <>
      <PageHeader
        title="Projects"
        subtitle="Azure DevOps projects you can access"
        actions={
          <Button
            icon={refreshing ? <Spinner size="extra-tiny" /> : <ArrowClockwiseRegular />}
            onClick={refresh}
            disabled={refreshing}
          >
            Refresh
          </Button>
        }
      />
      <div className={styles.counters}>
        <Card className={styles.counter}>
          <Text>Total Projects</Text>
          <Text className={styles.counterValue} aria-label="Total Projects count">
            {counterValue(all.length)}
          </Text>
        </Card>
        <Card className={styles.counter}>
          <Text>Showing</Text>
          <Text className={styles.counterValue} aria-label="Showing count">
            {counterValue(shown.length)}
          </Text>
        </Card>
      </div>
      <div className={styles.toolbar}>
        <SearchBox
          className={styles.search}
          placeholder="Search projects by name or ID"
          aria-label="Search projects"
          value={search}
          onChange={(_event, data) => setSearch(data.value)}
        />
      </div>

      {projects.isPending && <Spinner label="Loading projects..." />}
      {projects.isError && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Error Loading Projects</MessageBarTitle>
            Failed to load projects. Please try refreshing the page.
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void projects.refetch()}>Try Again</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {projects.isSuccess && shown.length === 0 && (
        <div className={styles.empty} role="status">
          {search.trim() && all.length > 0 ? (
            <>
              <Text size={500} weight="semibold">
                No projects match your search
              </Text>
              <Text>Try adjusting your search criteria</Text>
            </>
          ) : (
            <>
              <Text size={500} weight="semibold">
                No Projects Found
              </Text>
              <Text>
                No projects available. Make sure you have access to Azure DevOps projects.
              </Text>
            </>
          )}
        </div>
      )}
      {shown.length > 0 && (
        <div className={styles.grid}>
          {shown.map((project) => (
            <ProjectCard key={project.id} project={project} />
          ))}
        </div>
      )}
    </>
  );
}
