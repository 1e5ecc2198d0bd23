import { Spinner } from '@fluentui/react-components';

export function PageLoading() {
  return <Spinner style={{ marginTop: 96 }} label="Loading..." />;
}
