import { UNSAFE_createBrowserHistory } from 'react-router-dom';
import { NavigationGuard } from './navigation-guard';

/** The browser history the app's router runs on (app.tsx), behind the one navigation guard. */
export const appGuard = new NavigationGuard(UNSAFE_createBrowserHistory({ v5Compat: true }));
