import { Spin } from 'antd';

/** Shown while the first navigation (guard, menus, lazy view) resolves. */
export function BootScreen() {
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}
