import type { AzureMonitorOpenTelemetryOptions } from '@azure/monitor-opentelemetry';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

import type { AegisConfig } from './config';

/** Stops exporting and sends what is still buffered. */
export type StopTelemetry = () => Promise<void>;

/**
 * The Azure Monitor distribution's options for Aegis (ADR 061). The server span comes from
 * Fastify's hooks and every outgoing call's span from the connectors' one door, so the
 * distribution's own patching instrumentations are off: they would add a second span for the same
 * request where they work, and the bundled server loads its packages before they could patch them.
 */
function azureMonitorOptions(
  connectionString: string,
  serviceName: string,
): AzureMonitorOpenTelemetryOptions {
  return {
    azureMonitorExporterOptions: { connectionString },
    // merged over what the distribution detects (App Service, Container Apps, AKS, VM)
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    instrumentationOptions: {
      http: { enabled: false },
      azureSdk: { enabled: false },
      mongoDb: { enabled: false },
      mySql: { enabled: false },
      postgreSql: { enabled: false },
      redis: { enabled: false },
      redis4: { enabled: false },
    },
  };
}

/**
 * Sends traces and metrics to Application Insights when `APPLICATIONINSIGHTS_CONNECTION_STRING`
 * is configured; otherwise loads nothing, and the OpenTelemetry API the code writes to stays a
 * no-op. Called before the app is built, so that its first spans are exported.
 */
export async function startTelemetry(config: AegisConfig): Promise<StopTelemetry | undefined> {
  const connectionString = config.APPLICATIONINSIGHTS_CONNECTION_STRING;
  if (!connectionString) return undefined;
  const { useAzureMonitor, shutdownAzureMonitor } = await import('@azure/monitor-opentelemetry');
  useAzureMonitor(azureMonitorOptions(connectionString, config.OTEL_SERVICE_NAME));
  return () => shutdownAzureMonitor();
}
