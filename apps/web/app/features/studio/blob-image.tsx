import { type ImgHTMLAttributes, useEffect, useState } from 'react';

/** An image held in memory (a Blob from the device's storage or a fresh capture), shown through an object URL. */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!blob) return setUrl(undefined);
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

export function BlobImage({ blob, alt, ...rest }: { blob: Blob; alt: string } & ImgHTMLAttributes<HTMLImageElement>) {
  const url = useObjectUrl(blob);
  return url ? <img src={url} alt={alt} {...rest} /> : null;
}
