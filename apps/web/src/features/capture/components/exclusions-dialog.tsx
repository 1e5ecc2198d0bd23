import { DEFAULT_EXCLUDED_PROPERTIES, parseExclusionLines } from '@aegis/domain';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Tab,
  TabList,
  Textarea,
} from '@fluentui/react-components';
import { useState } from 'react';

/** Paths the baseline view leaves out (spec 3 §7), offered as the default path exclusions. */
const DEFAULT_EXCLUDED_PATHS = [
  '{token}',
  '/Office365',
  '/PowerPlatform',
  '/SecurityCompliance',
  '/Planner',
];

/** 'Update Excluded Properties' (spec 3 §2): Properties and Paths, one entry per line. */
export function ExclusionsDialog({
  open,
  properties,
  excludedPaths,
  onCancel,
  onApply,
}: {
  open: boolean;
  properties: string[];
  excludedPaths: string[];
  onCancel: () => void;
  onApply: (properties: string[], paths: string[]) => void;
}) {
  const [tab, setTab] = useState<'properties' | 'paths'>('properties');
  const [propertyText, setPropertyText] = useState(properties.join('\n'));
  const [pathText, setPathText] = useState(excludedPaths.join('\n'));

  return (
    <Dialog
      open={open}
      onOpenChange={(_, data) => {
        if (!data.open) onCancel();
      }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Update Excluded Properties</DialogTitle>
          <DialogContent tabIndex={0}>
            <TabList
              selectedValue={tab}
              onTabSelect={(_, data) => setTab(data.value as 'properties' | 'paths')}
            >
              <Tab value="properties">Properties</Tab>
              <Tab value="paths">Paths</Tab>
            </TabList>
            {tab === 'properties' ? (
              <Field label="Excluded properties (one per line)">
                <Textarea
                  rows={10}
                  value={propertyText}
                  onChange={(_, data) => setPropertyText(data.value)}
                />
              </Field>
            ) : (
              <Field label="Excluded paths (one per line)">
                <Textarea
                  rows={10}
                  value={pathText}
                  onChange={(_, data) => setPathText(data.value)}
                />
              </Field>
            )}
          </DialogContent>
          <DialogActions fluid>
            <Button
              onClick={() => {
                setPropertyText(DEFAULT_EXCLUDED_PROPERTIES.join('\n'));
                setPathText(DEFAULT_EXCLUDED_PATHS.join('\n'));
              }}
            >
              Load Default Exclusions
            </Button>
            <Button
              onClick={() => {
                setPropertyText('');
                setPathText('');
              }}
            >
              Clear All
            </Button>
            <Button onClick={onCancel}>Cancel</Button>
            <Button
              appearance="primary"
              onClick={() =>
                onApply(parseExclusionLines(propertyText), parseExclusionLines(pathText))
              }
            >
              Apply &amp; Re-analyze
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
