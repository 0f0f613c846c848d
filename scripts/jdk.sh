# Sourced by Krabka's scripts: points JAVA_HOME at a JDK 25, or stops with one line.
# JAVA_HOME wins when it is a JDK 25; otherwise the machine's Temurin 25.
krabka_is_jdk25() { [ -n "$1" ] && [ -x "$1/bin/javac" ] && grep -qs '^JAVA_VERSION="25' "$1/release"; }
if krabka_is_jdk25 "${JAVA_HOME:-}"; then
  :
elif krabka_is_jdk25 /usr/lib/jvm/temurin-25-jdk-amd64; then
  JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
else
  echo "krabka: needs a JDK 25: set JAVA_HOME to one (JAVA_HOME='${JAVA_HOME:-}' is not, and there is none at /usr/lib/jvm/temurin-25-jdk-amd64)" >&2
  exit 1
fi
export JAVA_HOME
# Maven itself touches sun.misc.Unsafe; the warnings say nothing about Krabka.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
