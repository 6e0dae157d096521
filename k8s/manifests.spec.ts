/**
 * Offline checks for the deployment files in k8s/ and docker/.
 *
 * 1. Schema: every k8s/*.yaml document is validated with the validators that
 *    `kubernetes-models` generates from the Kubernetes OpenAPI spec, and the
 *    KEDA ScaledObject with `@kubernetes-models/keda` (generated from KEDA's
 *    CRD OpenAPI schema). Those schemas allow unknown fields, so a second pass
 *    type-checks every document against the same packages' TypeScript types,
 *    whose excess-property check rejects misspelled fields (like
 *    `kubectl apply --validate=strict`).
 * 2. Cross-references between the manifests, and the docker/ files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { parse, parseAllDocuments } from 'yaml';
import { EmailWorkerQueues } from '@email/contracts';
import { loadConfig } from '@shared/config';
import { queuePrefix } from '@shared/queue';

const REPO = resolve(__dirname, '..');
const K8S = join(REPO, 'k8s');
const DOCKER = join(REPO, 'docker');

// ---- what is deployed (mirrors the deployment table) ----

interface Deployable {
  port: number;
  portEnv: 'PORT' | 'HEALTH_PORT';
  env: string[]; // beyond the shared ones
  /** The V8 memory limits (`--max-old-space-size`, `--max-semi-space-size`) it runs with wherever it is launched; none: V8's own. */
  nodeOptions?: string;
}
const SHARED_ENV = ['NODE_ENV', 'HOST', 'REDIS_URL', 'QUEUE_PREFIX', 'CURSOR_SECRET', 'ENCRYPTION_KEY'];
/** The apps bind 127.0.0.1 unless told otherwise; a container is reached through its network interface. */
const CONTAINER_HOST = '0.0.0.0';
const DEPLOYABLES: Record<string, Deployable> = {
  'email-api': { port: 3000, portEnv: 'PORT', env: ['EMAIL_DATABASE_URL', 'PUBLIC_BASE_URL'] },
  'forms-api': { port: 3100, portEnv: 'PORT', env: ['FORMS_DATABASE_URL', 'FORMS_PUBLIC_BASE_URL'] },
  'email-send-worker': { port: 9101, portEnv: 'HEALTH_PORT', env: ['EMAIL_DATABASE_URL'] },
  'email-jobs-worker': { port: 9102, portEnv: 'HEALTH_PORT', env: ['EMAIL_DATABASE_URL'], nodeOptions: '--max-old-space-size=256 --max-semi-space-size=4' },
  'webhook-worker': { port: 9103, portEnv: 'HEALTH_PORT', env: ['EMAIL_DATABASE_URL'] },
  'forms-worker': { port: 9104, portEnv: 'HEALTH_PORT', env: ['FORMS_DATABASE_URL'], nodeOptions: '--max-old-space-size=192 --max-semi-space-size=4' },
};
const NAMES = Object.keys(DEPLOYABLES);
const APIS = NAMES.filter((n) => DEPLOYABLES[n].portEnv === 'PORT');
const requiredEnv = (name: string) => [...SHARED_ENV, DEPLOYABLES[name].portEnv, ...DEPLOYABLES[name].env];

const MIGRATIONS: Record<string, string> = { email: 'EMAIL_DATABASE_URL', forms: 'FORMS_DATABASE_URL' };

// ---- minimal shapes of what the assertions read ----

type Labels = Record<string, string>;
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: { name: string; key: string };
    secretKeyRef?: { name: string; key: string };
  };
}
interface Probe {
  httpGet?: { path?: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Labels; limits?: Labels };
  securityContext?: { runAsNonRoot?: boolean; readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface PodSpec {
  containers: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
interface PodTemplate {
  metadata?: { labels?: Labels };
  spec: PodSpec;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels };
  data?: Labels;
  stringData?: Labels;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any; // narrowed with the helpers below
}
interface Manifest {
  file: string;
  obj: K8sObject;
}

// ---- load k8s/*.yaml ----

const yamlFiles = readdirSync(K8S)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const parseProblems: string[] = [];
const all: Manifest[] = [];
for (const file of yamlFiles) {
  for (const doc of parseAllDocuments(readFileSync(join(K8S, file), 'utf8'))) {
    for (const e of [...doc.errors, ...doc.warnings]) parseProblems.push(`${file}: ${e.message}`);
    const obj = doc.toJS() as K8sObject | null;
    if (obj) all.push({ file, obj });
  }
}
const isKustomization = (m: Manifest) => m.obj.kind === 'Kustomization';
const manifests = all.filter((m) => !isKustomization(m));
const kustomization = all.find(isKustomization)?.obj as unknown as { resources?: string[]; images?: { name: string }[] } | undefined;

const id = (m: Manifest) => `${m.obj.kind}/${m.obj.metadata?.name} (${m.file})`;
const ofKind = (kind: string) => manifests.filter((m) => m.obj.kind === kind).map((m) => m.obj);
const deployments = () => ofKind('Deployment');
const podTemplate = (o: K8sObject) => o.spec.template as PodTemplate;
const workloads = () => [...ofKind('Deployment'), ...ofKind('Job')];
const byName = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name);

// ---- schema validators from kubernetes-models ----

const MODEL_PACKAGES: Record<string, string> = { 'keda.sh': '@kubernetes-models/keda' };

/** Module of the generated model for an apiVersion/kind, e.g. kubernetes-models/apps/v1/Deployment. */
function modelModule(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const pkg = MODEL_PACKAGES[group] ?? 'kubernetes-models';
  return group ? `${pkg}/${group}/${version}/${kind}` : `${pkg}/${version}/${kind}`;
}

type ModelClass = new (data: unknown) => { validate(): void };
function loadModel(apiVersion: string, kind: string): ModelClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(modelModule(apiVersion, kind)) as Record<string, ModelClass>;
  if (typeof mod[kind] !== 'function') throw new Error(`no schema for ${apiVersion} ${kind}`);
  return mod[kind];
}

/** Type-check all documents against the generated types; returns error messages per document. */
function strictFieldErrors(docs: Manifest[]): string[] {
  const file = join(K8S, '__strict_fields__.ts');
  const starts: number[] = [];
  let line = 0;
  const chunks = docs.map((m, i) => {
    const type = `import(${JSON.stringify(modelModule(m.obj.apiVersion, m.obj.kind))}).I${m.obj.kind}`;
    const chunk = `export const doc${i}: ${type} = ${JSON.stringify(m.obj, null, 2)};\n`;
    starts.push(line);
    line += chunk.split('\n').length - 1;
    return chunk;
  });
  const source = chunks.join('');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2020.d.ts'],
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => (name === file ? ts.createSourceFile(name, source, lang) : getSourceFile.call(host, name, lang, ...rest));
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], options, host);
  const sf = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => {
    const at = d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line;
    let index = 0;
    while (index + 1 < starts.length && starts[index + 1] <= at) index++;
    return `${id(docs[index])}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

// ---- env helpers ----

function configKeys(kind: 'ConfigMap' | 'Secret', name: string): string[] | undefined {
  const o = byName(kind, name);
  return o && Object.keys({ ...o.data, ...o.stringData });
}

/** Env var names a container gets, from env and envFrom. */
function envNames(c: Container): Set<string> {
  const names = new Set((c.env ?? []).map((e) => e.name));
  for (const src of c.envFrom ?? []) {
    if (src.configMapRef) configKeys('ConfigMap', src.configMapRef.name)?.forEach((k) => names.add(k));
    if (src.secretRef) configKeys('Secret', src.secretRef.name)?.forEach((k) => names.add(k));
  }
  return names;
}

// =====================================================================

describe('k8s manifests', () => {
  it('parse as YAML without errors', () => {
    expect(parseProblems).toEqual([]);
    expect(manifests.length).toBeGreaterThanOrEqual(15);
    for (const m of manifests) {
      expect(typeof m.obj.apiVersion).toBe('string');
      expect(typeof m.obj.kind).toBe('string');
      expect(m.obj.metadata?.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
  });

  it.each(manifests.map((m) => [id(m), m] as const))('%s matches its official schema', (_name, m) => {
    const Model = loadModel(m.obj.apiVersion, m.obj.kind);
    expect(() => new Model(m.obj).validate()).not.toThrow();
  });

  it('have no unknown fields (strict check against the generated types)', () => {
    expect(strictFieldErrors(manifests)).toEqual([]);
  }, 60_000);

  it('are unique and live in the declared Namespace', () => {
    const namespaces = ofKind('Namespace').map((n) => n.metadata.name);
    expect(namespaces).toEqual(['postline']);
    const keys = manifests.map((m) => `${m.obj.kind}/${m.obj.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of manifests.filter((x) => x.obj.kind !== 'Namespace')) {
      expect([id(m), m.obj.metadata.namespace]).toEqual([id(m), 'postline']);
    }
  });

  it('define exactly one Deployment per deployable, with its port and command', () => {
    expect(
      deployments()
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...NAMES].sort());
    for (const d of deployments()) {
      const want = DEPLOYABLES[d.metadata.name];
      const [c, ...others] = podTemplate(d).spec.containers;
      expect(others).toEqual([]);
      expect(c.command).toEqual(['node', `apps/${d.metadata.name}/dist/main.js`]);
      expect(c.image).toMatch(new RegExp(`/${d.metadata.name}:`));
      expect(c.ports?.map((p) => p.containerPort)).toEqual([want.port]);
      expect(c.env?.find((e) => e.name === want.portEnv)?.value).toBe(String(want.port));
    }
  });

  it('give every Deployment probes, resources, security settings and a shutdown grace period', () => {
    for (const d of deployments()) {
      const pod = podTemplate(d).spec;
      expect([d.metadata.name, pod.terminationGracePeriodSeconds]).toEqual([d.metadata.name, expect.any(Number)]);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
      for (const c of pod.containers) {
        const ports = (c.ports ?? []).flatMap((p) => [p.containerPort, p.name]);
        expect(c.livenessProbe?.httpGet?.path).toBe('/healthz');
        expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
        expect(ports).toContain(c.livenessProbe?.httpGet?.port);
        expect(ports).toContain(c.readinessProbe?.httpGet?.port);
        for (const level of ['requests', 'limits'] as const) {
          expect(Object.keys(c.resources?.[level] ?? {}).sort()).toEqual(['cpu', 'memory']);
        }
        expect(pod.securityContext?.runAsNonRoot ?? c.securityContext?.runAsNonRoot).toBe(true);
        // The image's USER is the name `node`: the kubelet needs a numeric uid to verify runAsNonRoot.
        expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
        expect(c.securityContext?.readOnlyRootFilesystem).toBe(true);
        expect(c.securityContext?.allowPrivilegeEscalation).toBe(false);
      }
    }
  });

  it('reference only existing ConfigMaps, Secrets and keys', () => {
    const missing: string[] = [];
    for (const w of workloads()) {
      for (const c of podTemplate(w).spec.containers) {
        for (const src of c.envFrom ?? []) {
          if (src.configMapRef && !configKeys('ConfigMap', src.configMapRef.name)) missing.push(`${w.metadata.name}: ConfigMap ${src.configMapRef.name}`);
          if (src.secretRef && !configKeys('Secret', src.secretRef.name)) missing.push(`${w.metadata.name}: Secret ${src.secretRef.name}`);
        }
        for (const e of c.env ?? []) {
          const cm = e.valueFrom?.configMapKeyRef;
          const sec = e.valueFrom?.secretKeyRef;
          if (cm && !configKeys('ConfigMap', cm.name)?.includes(cm.key)) missing.push(`${w.metadata.name}: ConfigMap ${cm.name}/${cm.key}`);
          if (sec && !configKeys('Secret', sec.name)?.includes(sec.key)) missing.push(`${w.metadata.name}: Secret ${sec.name}/${sec.key}`);
        }
        expect(c.envFrom?.length).toBeGreaterThan(0);
      }
    }
    expect(missing).toEqual([]);
  });

  it('provide every environment variable each deployable needs', () => {
    for (const d of deployments()) {
      const have = envNames(podTemplate(d).spec.containers[0]);
      const lacking = requiredEnv(d.metadata.name).filter((n) => !have.has(n));
      expect([d.metadata.name, lacking]).toEqual([d.metadata.name, []]);
    }
  });

  it('give the job workers their V8 memory limits, and every other deployable V8 its own', () => {
    for (const d of deployments()) {
      const options = podTemplate(d).spec.containers[0].env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
      expect([d.metadata.name, options]).toEqual([d.metadata.name, DEPLOYABLES[d.metadata.name].nodeOptions]);
    }
  });

  it('make every deployable bind all addresses of its pod, so Services and probes reach it', () => {
    const config = byName('ConfigMap', 'postline-config')!.data!;
    expect(config.HOST).toBe(CONTAINER_HOST);
    for (const d of deployments()) {
      const own = podTemplate(d).spec.containers[0].env?.find((e) => e.name === 'HOST');
      expect([d.metadata.name, own?.value ?? config.HOST]).toEqual([d.metadata.name, CONTAINER_HOST]);
    }
  });

  it('route every Service to the pods of a Deployment, on a declared port', () => {
    const services = ofKind('Service');
    expect(services.map((s) => s.metadata.name).sort()).toEqual([...APIS].sort());
    for (const s of services) {
      const selector = s.spec.selector as Labels;
      expect(Object.keys(selector ?? {}).length).toBeGreaterThan(0);
      const targets = deployments().filter((d) => Object.entries(selector).every(([k, v]) => podTemplate(d).metadata?.labels?.[k] === v));
      expect([s.metadata.name, targets.map((d) => d.metadata.name)]).toEqual([s.metadata.name, [s.metadata.name]]);
      const ports = podTemplate(targets[0]).spec.containers.flatMap((c) => (c.ports ?? []).flatMap((p) => [p.containerPort, p.name]));
      for (const p of s.spec.ports as { targetPort: number | string }[]) expect(ports).toContain(p.targetPort);
    }
  });

  it('select their own pods in every Deployment', () => {
    for (const d of deployments()) {
      const labels = podTemplate(d).metadata?.labels ?? {};
      for (const [k, v] of Object.entries(d.spec.selector.matchLabels as Labels)) expect(labels[k]).toBe(v);
    }
  });

  it('point every autoscaler at an existing Deployment, one each, and leave replicas to it', () => {
    const targets: string[] = [];
    for (const hpa of ofKind('HorizontalPodAutoscaler')) {
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      const ref = hpa.spec.scaleTargetRef;
      expect([ref.apiVersion, ref.kind]).toEqual(['apps/v1', 'Deployment']);
      expect(hpa.spec.metrics).toContainEqual(expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }));
      expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
      targets.push(ref.name);
    }
    expect([...targets].sort()).toEqual([...APIS].sort());
    for (const so of ofKind('ScaledObject')) {
      const ref = so.spec.scaleTargetRef;
      expect(ref.kind ?? 'Deployment').toBe('Deployment');
      expect(ref.apiVersion ?? 'apps/v1').toBe('apps/v1');
      targets.push(ref.name);
    }
    for (const t of targets) expect([t, byName('Deployment', t)?.kind]).toEqual([t, 'Deployment']);
    expect(new Set(targets).size).toBe(targets.length);
    for (const t of targets) expect([t, byName('Deployment', t)?.spec.replicas]).toEqual([t, undefined]);
  });

  it('scale email-send-worker with KEDA on the deliveries left in PostgreSQL and the preparation wait list', () => {
    const [so, ...others] = ofKind('ScaledObject');
    expect(others).toEqual([]);
    expect(so.apiVersion).toBe('keda.sh/v1alpha1');
    expect(so.spec.scaleTargetRef.name).toBe('email-send-worker');
    expect(so.spec.minReplicaCount).toBe(1);
    expect(so.spec.maxReplicaCount).toBeGreaterThan(1);

    type Trigger = { type: string; metadata: Labels };
    const triggers = so.spec.triggers as Trigger[];
    const container = podTemplate(byName('Deployment', 'email-send-worker')!).spec.containers.find(
      (c) => c.name === (so.spec.scaleTargetRef.envSourceContainerName ?? c.name),
    )!;

    // The send queue is the delivery rows: one PostgreSQL trigger on the email database (its query is run for real
    // by send-worker-scaler.int-spec.ts).
    const [deliveries, ...otherSql] = triggers.filter((t) => t.type === 'postgresql');
    expect(otherSql).toEqual([]);
    expect(deliveries.metadata.connectionFromEnv).toBe('EMAIL_DATABASE_URL');
    expect(envNames(container).has('EMAIL_DATABASE_URL')).toBe(true);
    expect(Number(deliveries.metadata.targetQueryValue)).toBeGreaterThan(0);

    // The Redis triggers are exactly the wait lists of the BullMQ queues the send worker consumes, each
    // "{<QUEUE_PREFIX>:<queue>}:<queue>:wait" with the configured prefix.
    const redis = triggers.filter((t) => t.type === 'redis');
    expect(redis.length + 1).toBe(triggers.length);
    const prefix = byName('ConfigMap', 'postline-config')?.data?.QUEUE_PREFIX;
    const waitLists = EmailWorkerQueues['email-send-worker'].map((queue) => `${queuePrefix(prefix!, queue)}:${queue}:wait`);
    expect(redis.map((t) => t.metadata.listName).sort()).toEqual([...waitLists].sort());
    for (const t of redis) expect(Number(t.metadata.listLength)).toBeGreaterThan(0);

    // The Redis address comes from an env var the target container really has, matching REDIS_URL.
    const config = byName('ConfigMap', 'postline-config')!.data!;
    for (const t of redis) {
      const fromEnv = t.metadata.addressFromEnv;
      expect(fromEnv).toBeDefined();
      expect(envNames(container).has(fromEnv)).toBe(true);
      expect(config[fromEnv]).toBe(new URL(config.REDIS_URL).host);
    }
  });

  it('run one migration Job per database, from the matching API image', () => {
    const jobs = ofKind('Job');
    expect(jobs.map((j) => j.metadata.labels?.['app.kubernetes.io/component'])).toEqual(jobs.map(() => 'migration'));
    for (const [service, dbVar] of Object.entries(MIGRATIONS)) {
      const matching = jobs.filter((j) => podTemplate(j).spec.containers[0].command?.join(' ') === `node scripts/db.mjs migrate --service ${service}`);
      expect([service, matching.length]).toEqual([service, 1]);
      const pod = podTemplate(matching[0]).spec;
      expect(['Never', 'OnFailure']).toContain(pod.restartPolicy);
      expect(pod.containers[0].image).toMatch(new RegExp(`/${service}-api:`));
      expect(envNames(pod.containers[0]).has(dbVar)).toBe(true);
    }
    expect(jobs).toHaveLength(Object.keys(MIGRATIONS).length);
  });

  it('keep only placeholder values in the Secret', () => {
    for (const s of ofKind('Secret')) {
      expect(s.data).toBeUndefined(); // base64 would hide real values from review
      for (const [k, v] of Object.entries(s.stringData ?? {})) expect([k, v]).toEqual([k, expect.stringContaining('REPLACE_ME')]);
    }
  });

  it('list every manifest file and every image in kustomization.yaml', () => {
    expect(kustomization).toBeDefined();
    const manifestFiles = yamlFiles.filter((f) => f !== 'kustomization.yaml');
    expect([...(kustomization?.resources ?? [])].sort()).toEqual(manifestFiles);
    const images = workloads().flatMap((w) => podTemplate(w).spec.containers.map((c) => c.image.replace(/:[^:/]+$/, '')));
    const listed = (kustomization?.images ?? []).map((i) => i.name);
    expect([...new Set(images)].sort()).toEqual([...listed].sort());
  });
});

// =====================================================================

describe('docker', () => {
  type ComposeService = {
    image?: string;
    build?: { context: string; dockerfile: string; args?: Labels };
    command?: string[];
    environment?: Labels;
    depends_on?: Record<string, { condition: string }>;
    healthcheck?: { test: string[] };
    volumes?: string[];
    ports?: string[];
  };
  const compose = parse(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const services = compose.services;
  const dockerfile = readFileSync(join(DOCKER, 'Dockerfile'), 'utf8');
  const INFRA = ['postgres', 'redis', 'mailpit'];

  /** The build of a service: context is the repo root, Dockerfile exists, APP names an app. */
  function expectAppBuild(name: string, app: string) {
    const build = services[name]?.build;
    expect([name, build?.args?.APP]).toEqual([name, app]);
    expect(resolve(DOCKER, build!.context)).toBe(REPO);
    expect(existsSync(join(REPO, build!.dockerfile))).toBe(true);
    expect(resolve(REPO, build!.dockerfile)).toBe(join(DOCKER, 'Dockerfile'));
    expect(existsSync(join(REPO, 'apps', app))).toBe(true);
  }

  it('builds every deployable from docker/Dockerfile with its APP', () => {
    for (const name of NAMES) expectAppBuild(name, name);
  });

  it('passes each deployable the environment it needs, binding every address inside its container', () => {
    for (const name of NAMES) {
      const env = services[name].environment ?? {};
      expect([name, requiredEnv(name).filter((k) => env[k] === undefined)]).toEqual([name, []]);
      expect(env[DEPLOYABLES[name].portEnv]).toBe(String(DEPLOYABLES[name].port));
      expect([name, env.HOST]).toEqual([name, CONTAINER_HOST]);
    }
  });

  it('gives the job workers the same V8 memory limits as Kubernetes and npm start', () => {
    const launch = readFileSync(join(REPO, 'scripts/lib/launch.mjs'), 'utf8');
    for (const name of NAMES) {
      expect([name, services[name].environment?.NODE_OPTIONS]).toEqual([name, DEPLOYABLES[name].nodeOptions]);
      const started = new RegExp(`^ *\\{ name: '${name}',.*\\}`, 'm').exec(launch)?.[0];
      const args = /nodeArgs: \[([^\]]*)\]/.exec(started ?? '')?.[1];
      const joined = args === undefined ? undefined : [...args.matchAll(/'([^']+)'/g)].map((arg) => arg[1]).join(' ');
      expect([name, started !== undefined, joined]).toEqual([name, true, DEPLOYABLES[name].nodeOptions]);
    }
  });

  it("publishes ports on the host's loopback only", () => {
    const published = Object.entries(services).flatMap(([name, s]) => (s.ports ?? []).map((port) => [name, port]));
    expect(published.length).toBeGreaterThanOrEqual(NAMES.length);
    for (const [name, port] of published) expect([name, port]).toEqual([name, expect.stringMatching(/^127\.0\.0\.1:\d+:\d+$/)]);
  });

  it('gives PostgreSQL the credentials of the default database URLs, so npm start works against it unchanged', () => {
    const defaults = new URL(loadConfig({}).emailDatabaseUrl);
    expect(new URL(loadConfig({}).formsDatabaseUrl).username).toBe(defaults.username);
    const postgres = services.postgres.environment ?? {};
    expect(postgres.POSTGRES_USER).toBe(defaults.username);
    if (defaults.password) expect(postgres.POSTGRES_PASSWORD).toBe(defaults.password);
    else expect(postgres.POSTGRES_HOST_AUTH_METHOD).toBe('trust');
    expect(services.postgres.healthcheck?.test).toEqual(expect.arrayContaining(['-U', defaults.username]));
    const urls = Object.entries(services).flatMap(([name, s]) =>
      Object.entries(s.environment ?? {})
        .filter(([key]) => key.endsWith('_DATABASE_URL'))
        .map(([key, value]) => [`${name} ${key}`, value]),
    );
    expect(urls.length).toBeGreaterThanOrEqual(Object.keys(MIGRATIONS).length + NAMES.length);
    for (const [where, value] of urls) {
      const url = new URL(value);
      expect([where, url.username, url.password]).toEqual([where, defaults.username, defaults.password]);
    }
  });

  it('starts deployables only after healthy infra and completed migrations', () => {
    for (const name of INFRA) expect([name, services[name]?.healthcheck?.test?.length]).toEqual([name, expect.any(Number)]);
    for (const name of NAMES) {
      const deps = services[name].depends_on ?? {};
      const db = DEPLOYABLES[name].env.includes('EMAIL_DATABASE_URL') ? 'email' : 'forms';
      expect(deps.postgres?.condition).toBe('service_healthy');
      expect(deps.redis?.condition).toBe('service_healthy');
      expect(deps[`migrate-${db}`]?.condition).toBe('service_completed_successfully');
      for (const [dep, { condition }] of Object.entries(deps)) {
        expect(services[dep]).toBeDefined();
        if (condition === 'service_healthy') expect(services[dep].healthcheck ?? dockerfile.includes('HEALTHCHECK')).toBeTruthy();
      }
    }
  });

  it('runs one migrate service per database', () => {
    for (const [service, dbVar] of Object.entries(MIGRATIONS)) {
      const name = `migrate-${service}`;
      expectAppBuild(name, `${service}-api`);
      expect(services[name].command).toEqual(['node', 'scripts/db.mjs', 'migrate', '--service', service]);
      expect(services[name].environment?.[dbVar]).toMatch(new RegExp(`@postgres:5432/${service}$`));
      expect(services[name].depends_on?.postgres?.condition).toBe('service_healthy');
    }
  });

  it('creates both databases and mounts only files that exist', () => {
    for (const s of Object.values(services)) {
      for (const v of s.volumes ?? []) {
        if (v.startsWith('.')) expect([v, existsSync(resolve(DOCKER, v.split(':')[0]))]).toEqual([v, true]);
      }
    }
    const sql = readFileSync(join(DOCKER, 'postgres-init.sql'), 'utf8');
    for (const db of Object.keys(MIGRATIONS)) expect(sql).toMatch(new RegExp(`CREATE DATABASE ${db};`));
  });

  it('has a multi-stage Dockerfile that runs apps/$APP as the node user, bound to every address', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-slim$/m);
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile/);
    expect(dockerfile).toMatch(/pnpm db:generate && pnpm build/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^ARG APP$/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^ENV [^#]*\bHOST=0\.0\.0\.0\b/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
    expect(runtime).toMatch(/^CMD .*node apps\/\$\{APP\}\/dist\/main\.js/m);
  });

  it('copies only files that exist and are not dockerignored', () => {
    const ignored = readFileSync(join(DOCKER, 'Dockerfile.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      if (src === '.') continue;
      expect([src, existsSync(join(REPO, src))]).toEqual([src, true]);
      expect(ignored.filter((p) => src === p || src.startsWith(`${p}/`))).toEqual([]);
    }
  });
});
