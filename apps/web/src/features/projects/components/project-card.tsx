import { projectIconFor, shortProjectId, type ProjectIconName } from '@aegis/domain';
import { Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import {
  BriefcaseRegular,
  CloudRegular,
  CodeRegular,
  DatabaseRegular,
  FolderRegular,
  GlobeRegular,
  RocketRegular,
  ShieldRegular,
  type FluentIcon,
} from '@fluentui/react-icons';
import { Link } from 'react-router';

import { paths } from '../../../config/paths';

const ICONS: Record<ProjectIconName, FluentIcon> = {
  folder: FolderRegular,
  rocket: RocketRegular,
  cloud: CloudRegular,
  code: CodeRegular,
  database: DatabaseRegular,
  shield: ShieldRegular,
  briefcase: BriefcaseRegular,
  globe: GlobeRegular,
};

const useStyles = makeStyles({
  link: { textDecoration: 'none', color: 'inherit', borderRadius: tokens.borderRadiusLarge },
  card: { height: '100%', ':hover': { boxShadow: tokens.shadow8 } },
  icon: {
    fontSize: '28px',
    color: tokens.colorBrandForeground1,
    backgroundColor: tokens.colorBrandBackground2,
    borderRadius: tokens.borderRadiusMedium,
    padding: '6px',
  },
  id: { color: tokens.colorNeutralForeground3, fontFamily: tokens.fontFamilyMonospace },
});

export function ProjectCard({ project }: { project: { id: string; name: string } }) {
  const styles = useStyles();
  const Icon = ICONS[projectIconFor(project.name)];
  return (
    <Link className={styles.link} to={paths.associatedPipelines.getHref(project.name, project.id)}>
      {/* The link names itself from the card text; a group role would hide that text from its name. */}
      <Card className={styles.card} role="none">
        <CardHeader
          image={<Icon className={styles.icon} aria-hidden />}
          header={<Text weight="semibold">{project.name}</Text>}
          description={
            <Text size={200} className={styles.id} title={project.id}>
              ID: {shortProjectId(project.id)}
            </Text>
          }
        />
      </Card>
    </Link>
  );
}
