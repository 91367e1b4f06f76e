# massim-go: a static binary on an empty image, run as a non-root user.
# Base images are pinned to exact versions: the Go release of go.mod on a
# fixed Debian release for the build, and "scratch" (the empty image, which
# has no versions) to run. The run image gets only what the binary needs:
# a passwd entry for the user, a writable /tmp (the demo's results folder)
# and the working folder with the example configs; the time zone database
# is built into the binary (-tags timetzdata), so TZ=Europe/Berlin works for
# "HH:mm" launches and local file names.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -tags timetzdata -o /out/massim ./cmd/massim \
 && mkdir -p /out/etc /out/tmp /out/work \
 && cp -r config/examples /out/work/config-examples \
 && echo 'nonroot:x:65532:65532:nonroot:/work:/sbin/nologin' > /out/etc/passwd \
 && echo 'nonroot:x:65532:' > /out/etc/group \
 && chmod 1777 /out/tmp

FROM scratch
COPY --from=build /out/etc /etc
COPY --from=build /out/tmp /tmp
COPY --from=build /out/massim /usr/local/bin/massim
COPY --from=build --chown=65532:65532 /out/work /work
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
