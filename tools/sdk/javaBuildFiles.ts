/**
 * The Java SDK's Maven build files, which Pulumi's Java generator does not write (it writes Gradle
 * files or, as used here with `--local`, none): `pom.xml`, and the `plugin.json` resource that the
 * Gradle build it would have written generates, by which the Java language host finds the plugin
 * a program needs. Both come from the schema alone, so a change of the schema's name, version,
 * description or `pluginDownloadURL` reaches them through `npm run sdk:generate`.
 */

/** The part of the schema these files read. */
export interface JavaPackageSpec {
  name: string;
  version: string;
  displayName?: string;
  description?: string;
  homepage?: string;
  repository?: string;
  license?: string;
  pluginDownloadURL?: string;
  language?: { java?: { basePackage?: string; dependencies?: Record<string, string> } };
}

/**
 * The Java SDK the generated code is compiled against: the newest `com.pulumi:pulumi` on Maven
 * Central (Pulumi's own Gradle files would name the generator's version, 1.22.0, which Central
 * does not serve). examples/java/pom.xml names the same version.
 */
export const PULUMI_JAVA_SDK = "1.36.1";

/**
 * What the generated code imports beyond `com.pulumi:pulumi`, which declares these only for run
 * time: `javax.annotation.Nullable` (jsr305) and gson, at the versions that SDK runs with.
 */
const COMPILE_DEPENDENCIES: Record<string, string> = {
  "com.pulumi:pulumi": PULUMI_JAVA_SDK,
  "com.google.code.findbugs:jsr305": "3.0.2",
  "com.google.code.gson:gson": "2.10",
};

/**
 * The Maven plugins of `mvn install`, pinned: Maven 3.8's defaults are old (its compiler plugin,
 * 3.1, refuses this JDK's default source level: "Source option 5"), and a pinned version is never
 * looked up again. Each runs on Maven 3.8.
 */
export const MAVEN_PLUGINS: Record<string, string> = {
  "maven-compiler-plugin": "3.13.0",
  "maven-resources-plugin": "3.3.1",
  "maven-jar-plugin": "3.4.2",
  "maven-install-plugin": "3.1.3",
};

/**
 * The SDK has no tests: the test phase's surefire execution is unbound, so Maven neither fetches
 * surefire nor prints a test report for it.
 */
const SUREFIRE_VERSION = "3.5.2";

/** Java's release the SDK is compiled for: Pulumi's Java SDK itself needs 11. */
const JAVA_RELEASE = "11";

/** Pulumi's default base package: the group and the Java package start with it. */
const DEFAULT_BASE_PACKAGE = "com.pulumi";

/** The Maven coordinates and Java package of the SDK, as Pulumi's Java generator derives them. */
export function javaCoordinates(spec: JavaPackageSpec): {
  groupId: string;
  artifactId: string;
  version: string;
  javaPackage: string;
} {
  const base = spec.language?.java?.basePackage || DEFAULT_BASE_PACKAGE;
  const javaPackage = `${base}.${spec.name}`;
  // The Java SDK finds plugin.json only under com/ (com.pulumi.bootstrap.internal.PulumiPlugins).
  if (!/^com(\.[a-z_][a-z0-9_]*)+$/.test(javaPackage)) {
    throw new Error(
      `language.java.basePackage "${base}" with name "${spec.name}" makes the Java package "${javaPackage}": ` +
        "it must be lower-case identifiers under com. (Pulumi's Java SDK looks for plugin.json under com/ only)",
    );
  }
  return { groupId: base, artifactId: spec.name, version: spec.version, javaPackage };
}

/** The files to write under sdk/java, by path relative to it. */
export function javaBuildFiles(spec: JavaPackageSpec): Map<string, string> {
  const { javaPackage } = javaCoordinates(spec);
  const resources = `src/main/resources/${javaPackage.replaceAll(".", "/")}`;
  return new Map([
    ["pom.xml", pomXml(spec)],
    [`${resources}/plugin.json`, pluginJson(spec)],
  ]);
}

/** What the Gradle build of Pulumi's generator writes as plugin.json (its `genPulumiResources`). */
function pluginJson(spec: JavaPackageSpec): string {
  const plugin: Record<string, unknown> = { resource: true, name: spec.name, version: spec.version };
  if (spec.pluginDownloadURL) plugin.server = spec.pluginDownloadURL;
  return JSON.stringify(plugin, null, 2) + "\n";
}

function pomXml(spec: JavaPackageSpec): string {
  const { groupId, artifactId, version } = javaCoordinates(spec);
  const dependencies = { ...COMPILE_DEPENDENCIES, ...spec.language?.java?.dependencies };
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!-- Generated from the package schema by tools/sdk (npm run sdk:generate). Do not edit. -->`,
    `<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`,
    `         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">`,
    `  <modelVersion>4.0.0</modelVersion>`,
    element(2, "groupId", groupId),
    element(2, "artifactId", artifactId),
    element(2, "version", version),
    element(2, "packaging", "jar"),
    element(2, "name", spec.displayName ?? spec.name),
    element(2, "description", spec.description),
    element(2, "url", spec.homepage ?? spec.repository),
    ...(spec.license ? block(2, "licenses", [block(4, "license", [element(6, "name", spec.license)])]) : []),
    ...(spec.repository ? block(2, "scm", [element(4, "url", spec.repository)]) : []),
    ...block(2, "properties", [
      element(4, "project.build.sourceEncoding", "UTF-8"),
      element(4, "maven.compiler.release", JAVA_RELEASE),
    ]),
    ...block(
      2,
      "dependencies",
      Object.entries(dependencies)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([coordinates, v]) => dependency(coordinates, v)),
    ),
    ...block(2, "build", [
      block(4, "plugins", [
        ...Object.entries(MAVEN_PLUGINS).map(([a, v]) => plugin(a, v)),
        plugin("maven-surefire-plugin", SUREFIRE_VERSION, [
          block(8, "executions", [
            block(10, "execution", [element(12, "id", "default-test"), element(12, "phase", "none")]),
          ]),
        ]),
      ]),
    ]),
    `</project>`,
  ];
  return lines.filter((line) => line !== "").join("\n") + "\n";
}

function dependency(coordinates: string, version: string): string {
  const [groupId, artifactId] = coordinates.split(":");
  if (!groupId || !artifactId)
    throw new Error(`language.java.dependencies: "${coordinates}" is not group:artifact`);
  return block(4, "dependency", [
    element(6, "groupId", groupId),
    element(6, "artifactId", artifactId),
    element(6, "version", version),
  ]).join("\n");
}

function plugin(artifactId: string, version: string, more: string[][] = []): string {
  return block(6, "plugin", [
    element(8, "groupId", "org.apache.maven.plugins"),
    element(8, "artifactId", artifactId),
    element(8, "version", version),
    ...more,
  ]).join("\n");
}

/** `<tag>value</tag>` indented, or "" (left out) when there is no value. */
function element(indent: number, tag: string, value: string | undefined): string {
  return value ? `${" ".repeat(indent)}<${tag}>${escapeXml(value)}</${tag}>` : "";
}

/** `<tag>`, the children (each already indented, possibly several lines), `</tag>`. */
function block(indent: number, tag: string, children: Array<string | string[]>): string[] {
  const pad = " ".repeat(indent);
  return [`${pad}<${tag}>`, ...children.flat().filter((c) => c !== ""), `${pad}</${tag}>`];
}

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
