# syntax=docker/dockerfile:1
# event-api-harness as an image: the packed harness on Node 20 with the pinned k6 built from tools/k6.
#   docker build --build-arg EVENT_HARNESS_COMMIT="$(git rev-parse HEAD)" -t event-harness .
#   docker run --rm event-harness run --parts contract --profile fast          # against the embedded sandbox
#   docker run --rm -e EVENT_API_CLIENT_SECRET -v "$PWD/reports:/harness/reports" --user "$(id -u):$(id -g)" \
#     event-harness run --token-url https://sso.example.com/realms/r/protocol/openid-connect/token \
#     --base-url https://api.example.com --client-id release-check
# Base images are pinned by version tag; pin them by digest too where your registry policy asks for it.

# Go ≥ 1.25, as tools/k6/go.mod requires; Node 20, as package.json's engines say.
ARG GO_VERSION=1.25
ARG NODE_VERSION=20.20.2

# --- k6: the same build as `event-harness k6 --install`, from the module that pins it (go.mod + go.sum) ---
FROM golang:${GO_VERSION}-bookworm AS k6
WORKDIR /src/tools/k6
COPY tools/k6/go.mod tools/k6/go.sum ./
RUN go mod download
# tools/k6's main package: k6 with the harness's own extensions, k6/x/harness (the body cap, the VU's number) and
# the output harness-samples (the baseline record's samples).
COPY tools/k6/main.go ./
COPY tools/k6/harness ./harness
COPY tools/k6/samples ./samples
# Static (no cgo), so the binary runs on the slim Node image; `k6 version` must list both extensions.
RUN CGO_ENABLED=0 go build -trimpath -o /out/k6 . \
  && /out/k6 version | grep -F ' k6/x/harness [js]' \
  && /out/k6 version | grep -F ' harness-samples [output]'

# --- pack: the harness as npm would publish it (npm pack runs the package's own prepare/prepack build) ---
FROM node:${NODE_VERSION}-bookworm-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts wait until the sources are in: a prepare/prepack build needs them.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# The build context has no .git: the commit --version and the reports name comes in as a build argument
# (docker build --build-arg EVENT_HARNESS_COMMIT="$(git rev-parse HEAD)"); without it they say it is unknown.
ARG EVENT_HARNESS_COMMIT=""
RUN mkdir /out \
  && EVENT_HARNESS_COMMIT="${EVENT_HARNESS_COMMIT}" npm pack --pack-destination /out

# --- runtime: the packed harness with the dependency tree it was tested with, k6 beside it, a non-root user ---
FROM node:${NODE_VERSION}-bookworm-slim
ENV K6_BIN=/usr/local/bin/k6 \
    K6_NO_USAGE_REPORT=true \
    NODE_ENV=production
COPY --from=k6 /out/k6 /usr/local/bin/k6
# Installed as a consumer pins it (docs/ci.md): `npm install` of the tarball alone would resolve its dependencies
# afresh, to versions the harness never ran with; the example consumer's lock holds the tested tree.
WORKDIR /opt/event-harness
COPY examples/consumer/ci/event-harness/package.json examples/consumer/ci/event-harness/package-lock.json ./
COPY --from=pack /out/event-api-harness-*.tgz ./
# Runs write only to the working directory (reports, with each load run's k6 script): the non-root user owns it.
RUN npm ci --no-audit --no-fund \
  && rm event-api-harness-*.tgz \
  && ln -s /opt/event-harness/node_modules/.bin/event-harness /usr/local/bin/event-harness \
  && npm cache clean --force \
  && mkdir -p /harness/reports \
  && chown -R node:node /harness \
  && event-harness --help > /dev/null \
  && k6 version
# Reports default to reports/<run-id> under the working directory, i.e. in this volume.
WORKDIR /harness
VOLUME ["/harness/reports"]
# The Node image's unprivileged user (uid 1000).
USER node
ENTRYPOINT ["event-harness"]
CMD ["--help"]
