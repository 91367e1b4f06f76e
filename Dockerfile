# massim-go: a static binary on an empty image, run as a non-root user.
# Base images are pinned to exact versions: the Go release of go.mod on a
# fixed Debian release for the build, and "scratch" (the empty image, which
# has no versions) to run. The run image gets only what the binary needs:
# a passwd entry for the user, a writable /tmp (the demo's results folder)
# and the working folder with the example configs; the time zone database
# is built into the binary (-tags timetzdata), so TZ=Europe/Berlin works for
# "HH:mm" launches and local file names.
#
# GO_IMAGE replaces the build stage's base: any image with the Go toolchain of
# go.mod on its PATH (a mirror, or one built without a registry: the tests
# build theirs from Debian's packages, docs/operations.md, "Docker").
# GOPROXY is the Go module proxy of the machine that builds, which only it
# knows: --build-arg GOPROXY="$(go env GOPROXY)". There is no default.
ARG GO_IMAGE=golang:1.26.8-bookworm
FROM ${GO_IMAGE} AS build
ARG GOPROXY
WORKDIR /src
COPY go.mod go.sum ./
RUN test -n "$GOPROXY" || { echo 'Dockerfile: no Go module proxy: build with --build-arg GOPROXY="$(go env GOPROXY)" (the proxy of your machine; without Go, the URL of your module proxy, or direct)' >&2; exit 1; } \
 && GOPROXY="$GOPROXY" go mod download
COPY . .
# The run image's whole file tree is laid out under /out/root and copied in
# one COPY: copying a single folder (COPY /out/tmp /tmp) copies only its
# contents, so /tmp would lose its mode 1777 and the demo could not write.
RUN mkdir -p /out/root/etc /out/root/tmp /out/root/work /out/root/usr/local/bin \
 && CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -tags timetzdata -o /out/root/usr/local/bin/massim ./cmd/massim \
 && cp -r config/examples /out/root/work/config-examples \
 && echo 'nonroot:x:65532:65532:nonroot:/work:/sbin/nologin' > /out/root/etc/passwd \
 && echo 'nonroot:x:65532:' > /out/root/etc/group \
 && chown -R 65532:65532 /out/root/work \
 && chmod 1777 /out/root/tmp

FROM scratch
COPY --from=build /out/root /
ENV PATH=/usr/local/bin
WORKDIR /work
USER 65532:65532
# 12300: agents (TCP), 8000: web monitor, admin API and operations endpoints (HTTP/websocket)
EXPOSE 12300 8000
ENTRYPOINT ["/usr/local/bin/massim"]
# The demo: the embedded demo config and two sample teams, watched live at
# http://localhost:8000/ (docker run -p 8000:8000 ...). The contest example,
# unattended: see docs/operations.md, "Docker".
CMD ["demo", "-monitor", "0.0.0.0:8000", "-linger"]
