# Sourced by Krabka's scripts after jdk.sh: krabka_dist builds the distribution (jlink/target/dist) when it is
# missing or older than the sources, or stops with one line. KRABKA_DIST is where it is.
KRABKA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KRABKA_DIST="$KRABKA_ROOT/jlink/target/dist"
# Outside the distribution, which every Maven build lays out afresh.
KRABKA_DIST_STAMP="$KRABKA_ROOT/jlink/target/dist.built"
krabka_dist_stale() {
  [ ! -f "$KRABKA_DIST_STAMP" ] || [ ! -d "$KRABKA_DIST/lib" ] && return 0
  [ -n "$(find "$KRABKA_ROOT" \( -name target -o -name .git -o -name examples -o -name krabka-data \) -prune -o \
      \( -name '*.java' -o -name pom.xml -o -path '*/src/main/resources/*' \) -newer "$KRABKA_DIST_STAMP" -print -quit)" ]
}
krabka_dist() {
  krabka_dist_stale || return 0
  echo "krabka: building the distribution (first use, or the sources changed)..." >&2
  if ! (cd "$KRABKA_ROOT" && ./mvnw -q -B -Dmaven.test.skip=true -pl jlink -am package) >&2; then
    echo "krabka: the build failed; see the messages above" >&2
    exit 1
  fi
  touch "$KRABKA_DIST_STAMP"
}
