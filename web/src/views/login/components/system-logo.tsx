import { useState } from 'react';

/** The system logo from the config, or a monogram tile when there is none (or it fails to load). */
export function SystemLogo({ src, title, size = 40 }: { src?: string; title: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  if (src && !failed) {
    return <img className="login-logo" src={src} alt="" width={size} height={size} onError={() => setFailed(true)} />;
  }
  return (
    <span className="login-logo login-logo-mono" style={{ width: size, height: size, fontSize: size * 0.48 }} aria-hidden>
      {(title.trim()[0] ?? 'P').toUpperCase()}
    </span>
  );
}
