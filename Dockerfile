# massim-go: a static binary on a minimal image, run as a non-root user.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/massim ./cmd/massim \
 && mkdir -p /out/work && cp -r config/examples /out/work/config-examples

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/massim /usr/local/bin/massim
COPY --from=build --chown=nonroot:nonroot /out/work /work
WORKDIR /work
USER nonroot
# 12300: agents (TCP), 8000: web monitor (HTTP/websocket)
EXPOSE 12300 8000
ENTRYPOINT ["massim"]
# The demo: the embedded demo config and two sample teams, watched live at
# http://localhost:8000/ (docker run -p 8000:8000 ...).
CMD ["demo", "-monitor", "0.0.0.0:8000", "-linger"]
