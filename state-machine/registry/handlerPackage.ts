// RegisterType's SchemaHandlerPackage: the zip `cfn submit` uploads, read from cfn-local's own S3 store, and the
// schema JSON inside it. The CloudFormation CLI writes the schema at the zip's root as `schema.json`
// (cloudformation-cli, rpdk/core/project.py: SCHEMA_UPLOAD_FILENAME); a package zipped by hand from the project
// folder has it as `<org>-<service>-<resource>.json`, which is read when there is no schema.json.
import { unzipSync } from 'fflate';
import type { ReadonlyStore } from '../../storage/index.js';
import type { Caller } from '../engine.js';
import { parseS3Url } from '../../resources/s3Urls.js';

/** AWS's limit on a handler package (the registry's user guide: 50 MB zipped). */
const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;

export type PackageRead = { schema: string; configurationSchema?: string } | { failure: string };

function locate(url: string): { bucket: string; key: string } | undefined {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  if (s3) return { bucket: s3[1], key: s3[2] };
  return parseS3Url(url);
}

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_PACKAGE_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The schema file of the package at `url`, or why it could not be read (the registration's failure reason). */
export async function readHandlerPackage(
  store: Pick<ReadonlyStore, 'world' | 'objects' | 'bodies'>,
  scope: Caller,
  url: string,
  typeName: string,
): Promise<PackageRead> {
  const location = locate(url);
  if (!location) return { failure: `SchemaHandlerPackage ${url} is not an S3 URL` };
  const object = store.objects.get(scope.account, location.bucket, location.key);
  if (!object) return { failure: `Failed to download the handler package from ${url}: the object does not exist` };
  const bytes = object.size > MAX_PACKAGE_BYTES ? undefined : await bytesOf(store.bodies.read(object.bodyId));
  if (!bytes) return { failure: `The handler package ${url} is larger than ${MAX_PACKAGE_BYTES} bytes` };
  const projectFile = `${typeName.replace(/::/g, '-').toLowerCase()}.json`;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => ['schema.json', 'configuration-schema.json', projectFile].includes(f.name.toLowerCase()),
    });
  } catch {
    return { failure: `The handler package ${url} is not a valid zip file` };
  }
  const named = (name: string) => Object.keys(files).find((f) => f.toLowerCase() === name);
  const schemaFile = named('schema.json') ?? named(projectFile);
  if (!schemaFile) return { failure: `The handler package ${url} has no schema.json at its root` };
  const configuration = named('configuration-schema.json');
  const text = (name: string) => Buffer.from(files[name]).toString('utf8');
  return { schema: text(schemaFile), configurationSchema: configuration ? text(configuration) : undefined };
}
