/**
 * Packs an extension folder as a .vsix (a zip: `extension/...`, `extension.vsixmanifest`,
 * `[Content_Types].xml`) without @vscode/vsce, so tests can exercise the installed-extension path
 * (`installVsix`) with what is already in node_modules. No validation or bundling: that is vsce's
 * job for real releases.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

interface Entry {
  name: string;
  data: Buffer;
}

function filesUnder(root: string, dir: string, exclude: (rel: string) => boolean): Entry[] {
  const out: Entry[] = [];
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    const rel = relative(root, abs).split(sep).join('/');
    if (exclude(rel)) continue;
    if (statSync(abs).isDirectory()) out.push(...filesUnder(root, abs, exclude));
    else out.push({ name: `extension/${rel}`, data: readFileSync(abs) });
  }
  return out;
}

const xmlEscape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function manifest(pkg: Record<string, unknown>): string {
  const str = (k: string) => xmlEscape(typeof pkg[k] === 'string' ? (pkg[k] as string) : '');
  const engines = (pkg.engines ?? {}) as Record<string, unknown>;
  const engine = xmlEscape(typeof engines.vscode === 'string' ? engines.vscode : '*');
  return `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${str('name')}" Version="${str('version')}" Publisher="${str('publisher')}"/>
    <DisplayName>${str('displayName') || str('name')}</DisplayName>
    <Description xml:space="preserve">${str('description')}</Description>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="${engine}"/></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation>
  <Dependencies/>
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true"/></Assets>
</PackageManifest>
`;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".js" ContentType="application/javascript"/><Default Extension=".vsixmanifest" ContentType="text/xml"/><Default Extension=".md" ContentType="text/markdown"/><Default Extension=".png" ContentType="image/png"/></Types>
`;

/** A zip archive (deflate, UTF-8 names, fixed 1980-01-01 timestamps for reproducible bytes). */
function zip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, packed);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * Writes `extensionDir` as a .vsix to `outFile`.
 * @param exclude relative paths (with '/') to leave out, e.g. tests; node_modules and dot-files
 * are always left out.
 */
export function packVsix(extensionDir: string, outFile: string, exclude: (rel: string) => boolean = () => false): void {
  const pkg = JSON.parse(readFileSync(join(extensionDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const skip = (rel: string) => rel.split('/').some((p) => p === 'node_modules' || p.startsWith('.')) || exclude(rel);
  const entries: Entry[] = [
    { name: 'extension.vsixmanifest', data: Buffer.from(manifest(pkg)) },
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    ...filesUnder(extensionDir, extensionDir, skip),
  ];
  writeFileSync(outFile, zip(entries));
}
