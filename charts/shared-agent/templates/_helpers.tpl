{{- define "shared-agent.name" -}}shared-agent{{- end -}}

{{- define "shared-agent.labels" -}}
app.kubernetes.io/name: shared-agent
app.kubernetes.io/part-of: executor-plugins
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "shared-agent.selector" -}}
app.kubernetes.io/name: shared-agent
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "shared-agent.serviceAccount" -}}{{ .Values.serviceAccount.name }}{{- end -}}

{{- define "shared-agent.clusterRole" -}}{{ printf "executor-plugins-shared-agent-%s" .Release.Namespace }}{{- end -}}
