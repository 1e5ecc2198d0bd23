import {
  FolderRegular,
  FormRegular,
  GavelRegular,
  GlobeRegular,
  LaptopRegular,
  MailRegular,
  PeopleTeamRegular,
  PersonAccountsRegular,
  ShieldLockRegular,
  ShieldRegular,
  TaskListLtrRegular,
  WrenchRegular,
} from '@fluentui/react-icons';
import type { ComponentType } from 'react';

const ICONS: Record<string, ComponentType<{ 'aria-hidden'?: boolean }>> = {
  azuread: PersonAccountsRegular,
  azuremaintenance: WrenchRegular,
  azurepolicy: GavelRegular,
  conditionalaccess: ShieldLockRegular,
  defender: ShieldRegular,
  exchange: MailRegular,
  forms: FormRegular,
  intune: LaptopRegular,
  planner: TaskListLtrRegular,
  sharepoint: GlobeRegular,
  teams: PeopleTeamRegular,
};

/** The icon of a category (spec 3 §2); a folder for the others. */
export function CategoryIcon({ category }: { category: string }) {
  const key = category.split('/')[0]?.replace(/\s+/g, '').toLowerCase() ?? '';
  const Icon = ICONS[key] ?? FolderRegular;
  return <Icon aria-hidden />;
}
