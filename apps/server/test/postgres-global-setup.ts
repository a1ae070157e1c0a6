import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { startPostgresCluster } from './postgres-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresTemplateUrl: string;
    /** The template database through the cluster's Unix socket. */
    postgresSocketUrl: string;
    /** The test cluster's data folder (the erasure test searches its files). */
    postgresDataDir: string;
  }
}

export const TEMPLATE_DATABASE = 'skanova_template';

/** Starts one cluster for the run and migrates a template database that each test file copies. */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = openDatabase({ url: cluster.url(TEMPLATE_DATABASE), poolSize: 1 });
  await migrate(template.sql);
  await template.close();
  project.provide('postgresTemplateUrl', cluster.url(TEMPLATE_DATABASE));
  project.provide('postgresSocketUrl', cluster.socketUrl(TEMPLATE_DATABASE));
  project.provide('postgresDataDir', cluster.dataDir);
  return () => cluster.stop();
}
