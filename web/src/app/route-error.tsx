import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import ServerError from '../views/error/500.tsx';

/** Route errors are only logged; the user sees the 500 page. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('[route error]', error);
  }, [error]);
  return <ServerError />;
}
