import { useEffect } from 'react';

/** The product's name, last in every browser tab's title. */
const PRODUCT_NAME = 'Aegis';

/**
 * Names the browser tab after the page ('Tenant Backups - Aegis'): technicians keep several
 * screens open in tabs, and a tab list of 'Aegis' tells them apart by nothing.
 */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} - ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
