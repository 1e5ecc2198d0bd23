import { CONSENT_RETURN_PARAMETERS, readConsentReturn, type ConsentReturn } from '@aegis/domain';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * The admin consent return (spec 2 §4): when the address carries one, its parameters are removed
 * from the address (so a reload does not handle it again) and `onReturn` is called, once.
 */
export function useConsentReturn(onReturn: (ret: ConsentReturn) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current) return;
    const params = new URLSearchParams(location.search);
    const ret = readConsentReturn(params);
    if (!ret) return;
    handled.current = true;
    for (const key of CONSENT_RETURN_PARAMETERS) params.delete(key);
    const rest = params.toString();
    void navigate(
      { pathname: location.pathname, search: rest ? `?${rest}` : '' },
      { replace: true },
    );
    onReturn(ret);
  }, [location.pathname, location.search, navigate, onReturn]);
}
