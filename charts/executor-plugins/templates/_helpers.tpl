{{- define "executor-plugins.labels" -}}
app.kubernetes.io/part-of: executor-plugins
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The namespaces to install into, as a JSON list. */}}
{{- define "executor-plugins.namespaces" -}}
{{- toJson (.Values.namespaces | default (list .Release.Namespace) | uniq) -}}
{{- end -}}

{{/*
The enabled plugins, as a JSON list: every plugin of files/ (what plugin:build copies from manifests/), each as
plugins.<name>.enabled says, by default the single plugins and not the collection (a plugin hosting others). The
collection never beside a single plugin: they answer the same keys.
*/}}
{{- define "executor-plugins.enabled" -}}
{{- $known := list -}}
{{- $enabled := list -}}
{{- range $path, $_ := $.Files.Glob "files/*.yaml" -}}
{{- $app := base $path | trimSuffix ".yaml" -}}
{{- $known = append $known $app -}}
{{- $p := index $.Values.plugins $app | default dict -}}
{{- $hosts := hasKey (($.Files.Get $path | fromYaml).metadata.annotations | default dict) "executor-plugins.dev/hosts" -}}
{{- if hasKey $p "enabled" | ternary $p.enabled (not $hosts) }}{{ $enabled = append $enabled (dict "app" $app "hosts" $hosts) }}{{ end -}}
{{- end -}}
{{- range $app := keys $.Values.plugins | sortAlpha -}}
{{- if not (has $app $known) -}}
{{- fail (printf "plugins.%s: the chart holds no such plugin (it has: %s)" $app (join ", " $known)) -}}
{{- end -}}
{{- end -}}
{{- $hosting := list }}{{ $singles := list -}}
{{- range $e := $enabled }}{{ if $e.hosts }}{{ $hosting = append $hosting $e.app }}{{ else }}{{ $singles = append $singles $e.app }}{{ end }}{{ end -}}
{{- if and $hosting $singles -}}
{{- fail (printf "plugins: the %s answers the keys of %s itself: enable it instead of them, not beside them (plugins.<name>.enabled=false)" (join ", " $hosting) (join ", " $singles)) -}}
{{- end -}}
{{- toJson (concat $hosting $singles | sortAlpha) -}}
{{- end -}}

{{/*
The plugin's ConfigMap (files/<app>.yaml, what npm run plugin:build writes in manifests/<app>) with the values'
settings applied as plugin.yaml would have them: env values replaced in place, new variables appended (values
in name order, then Secret keys in name order), the image and resources replaced. As JSON.
*/}}
{{- define "executor-plugins.configMap" -}}
{{- $app := .app -}}
{{- $values := .root.Values -}}
{{- $p := index $values.plugins $app | default dict -}}
{{- $cm := .root.Files.Get (printf "files/%s.yaml" $app) | fromYaml -}}
{{- if not $cm.data -}}{{- fail (printf "plugins.%s: the chart holds no plugin of that name" $app) -}}{{- end -}}
{{- $c := index $cm.data "sidecar.container" | fromYaml -}}
{{- $settings := $p.env | default dict -}}
{{- $seen := dict -}}
{{- $env := list -}}
{{- range $e := $c.env | default list -}}
{{- $_ := set $seen $e.name true -}}
{{- $from := $e.valueFrom | default dict -}}
{{- $ref := $from.secretKeyRef | default $from.configMapKeyRef -}}
{{- if $ref -}}
{{- if hasKey $settings $e.name -}}
{{- fail (printf "plugins.%s.env.%s: the plugin reads it from the %s %s, key %s: set it there, not in values" $app $e.name (ternary "Secret" "ConfigMap" (hasKey $from "secretKeyRef")) $ref.name $ref.key) -}}
{{- end -}}
{{- $env = append $env $e -}}
{{- else if hasKey $settings $e.name -}}
{{- $env = append $env (dict "name" $e.name "value" (toString (index $settings $e.name))) -}}
{{- else -}}
{{- $env = append $env $e -}}
{{- end -}}
{{- end -}}
{{- range $name := keys $settings | sortAlpha -}}
{{- if not (hasKey $seen $name) -}}
{{- $_ := set $seen $name true -}}
{{- $env = append $env (dict "name" $name "value" (toString (index $settings $name))) -}}
{{- end -}}
{{- end -}}
{{- range $name := keys ($p.secretEnv | default dict) | sortAlpha -}}
{{- $ref := index $p.secretEnv $name -}}
{{- if hasKey $seen $name -}}
{{- fail (printf "plugins.%s.secretEnv.%s: the variable is already set (by the plugin or plugins.%s.env)" $app $name $app) -}}
{{- end -}}
{{- if and (eq $app "collection") (not $ref.secret) -}}
{{- fail (printf "plugins.collection.secretEnv.%s.secret: name the Secret of the plugin the variable is for (e.g. chat-notifier-executor-plugin)" $name) -}}
{{- end -}}
{{- $key := dict "key" $ref.key "name" ($ref.secret | default (printf "%s-executor-plugin" $app)) -}}
{{- if hasKey $ref "optional" }}{{ $_ := set $key "optional" $ref.optional }}{{ end -}}
{{- $env = append $env (dict "name" $name "valueFrom" (dict "secretKeyRef" $key)) -}}
{{- end -}}
{{- if $env }}{{ $_ := set $c "env" $env }}{{ end -}}
{{- $_ := set $c "image" (printf "%s/%s:%s" $values.image.repository $app ($values.image.tag | default .root.Chart.AppVersion)) -}}
{{- if $values.image.pullPolicy }}{{ $_ := set $c "imagePullPolicy" $values.image.pullPolicy }}{{ end -}}
{{- if $p.resources }}{{ $_ := set $c "resources" $p.resources }}{{ end -}}
{{- $_ := set $cm.data "sidecar.container" (toYaml $c) -}}
{{- toJson $cm -}}
{{- end -}}
